/** Radar's version, printed by `radar --version`. */
export const radarVersion = "0.1.0";
