import assert from "node:assert/strict";
import { parseComicFileName } from "../../src/library/comic_file_name.ts";

const cases: [string, Record<string, string>][] = [
  ["Saga 054 (2018) (digital).cbz", { series: "Saga", number: "54", year: "2018" }],
  ["Saga #54.cbz", { series: "Saga", number: "54" }],
  ["Saga #054 (2018).cbr", { series: "Saga", number: "54", year: "2018" }],
  ["Saga v03 054.cbz", { series: "Saga", volume: "3", number: "54" }],
  ["Saga Vol. 3 (2014).cbz", { series: "Saga", volume: "3", year: "2014" }],
  [
    "Batman - The Long Halloween 01 (of 13) (1996).cbz",
    { series: "Batman - The Long Halloween", number: "1", count: "13", year: "1996" },
  ],
  ["Spider-Man 2099 001 (1992).cbz", { series: "Spider-Man 2099", number: "1", year: "1992" }],
  ["2000AD 2100 (2018).cbz", { series: "2000AD", number: "2100", year: "2018" }],
  ["Saga_054_(2018)_(Digital)_(Zone-Empire).cbz", { series: "Saga", number: "54", year: "2018" }],
  ["[Group] Saga 054 [2018].cbz", { series: "Saga", number: "54", year: "2018" }],
  [
    "The Walking Dead v01 - Days Gone Bye (2004).cbz",
    { series: "The Walking Dead", volume: "1", title: "Days Gone Bye", year: "2004" },
  ],
  [
    "Saga (2012) 054 (2018).cbz",
    { series: "Saga", number: "54", year: "2018", seriesYear: "2012" },
  ],
  ["Saga - 054.cbz", { series: "Saga", number: "54" }],
  [
    "Saga 054 - The War for Phang (2018).cbz",
    { series: "Saga", number: "54", title: "The War for Phang", year: "2018" },
  ],
  ["X-Men 1.5 (2005).cbz", { series: "X-Men", number: "1.5", year: "2005" }],
  ["Invincible 000 (2003).cbz", { series: "Invincible", number: "0", year: "2003" }],
  ["Saga Annual 2014.cbz", { series: "Saga Annual 2014" }],
  ["One Piece v01.cbz", { series: "One Piece", volume: "1" }],
  ["Saga 054 (June 2018).cbz", { series: "Saga", number: "54", year: "2018", month: "6" }],
  ["Saga 054 (2018-07).cbz", { series: "Saga", number: "54", year: "2018", month: "7" }],
  ["Comics/Inbox/Saga 054.cbz", { series: "Saga", number: "54" }],
  ["scan.cbz", { series: "scan" }],
];

for (const [name, expected] of cases) {
  Deno.test(`parseComicFileName: ${name}`, () => {
    assert.deepEqual(parseComicFileName(name), expected);
  });
}

Deno.test("parseComicFileName: nothing useful in an empty or odd name", () => {
  assert.deepEqual(parseComicFileName(".cbz"), {});
  assert.deepEqual(parseComicFileName("(2018).cbz"), { year: "2018" });
});
