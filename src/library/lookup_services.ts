/**
 * The metadata lookup services' public roots (`library.comicvine.base_url` and
 * `library.open_library.base_url` replace them): the lookups send there, and the tools name them
 * as their destinations without loading the library.
 */

/** ComicVine's public API root. */
export const comicVineDefaultBase = "https://comicvine.gamespot.com/api";

/** Open Library's public root. */
export const openLibraryDefaultBase = "https://openlibrary.org";
