/** The source names money's health rows and events go under (the folder's, the categoriser's). */

/** The source name of money's events and health (the folder's row). */
export const moneySourceName = "money";
/** The health row of the model categoriser. */
export const moneyCategoriesSourceName = "money categories";
