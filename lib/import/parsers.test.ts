// The pieces that read the ring maker's files: delimiters and CSV quirks, file names, entry
// names, a row into a document, the Trends CSV's two header spellings.
import { describe, expect, it } from "vitest";
import { readCsv, sniffDelimiter } from "@/lib/import/csv";
import { collectionForFile, dataFolderOf, entryNameProblem, fileKey } from "@/lib/import/files";
import { collectionForHeader, isPlausibleDay, rowReader } from "@/lib/import/rows";
import { isTrendsHeader, trendsReader } from "@/lib/import/trends";
import { ImportRefusal } from "@/lib/import/refusal";

const NOW = Date.parse("2026-03-15T12:00:00Z");

async function* bytes(text: string, size = 5): AsyncGenerator<Buffer> {
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

async function readAll(text: string, file = "x.csv") {
  const { head, batches } = await readCsv(bytes(text), file);
  const rows: Array<{ row: number; cells: string[] }> = [];
  for await (const batch of batches) for (const cells of batch) rows.push({ row: rows.length + 1, cells });
  return { head, rows };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRefusal);
    return (err as Error).message;
  }
  throw new Error("not refused");
}

describe("CSV files", () => {
  it("finds the delimiter: a sep= line names it, else the one that splits the header most", () => {
    expect(sniffDelimiter("id;day;score\n1;2;3")).toEqual({ delimiter: ";", sepLine: false });
    expect(sniffDelimiter("date,Sleep Score,Steps\n")).toEqual({ delimiter: ",", sepLine: false });
    expect(sniffDelimiter("id\tday\n")).toEqual({ delimiter: "\t", sepLine: false });
    expect(sniffDelimiter("\ufeffsep=,\nid;day,x\n")).toEqual({ delimiter: ",", sepLine: true });
    expect(sniffDelimiter('id;"a,b,c";day\n')).toEqual({ delimiter: ";", sepLine: false });
    expect(sniffDelimiter("id|day|score\n")).toBeNull();
    expect(sniffDelimiter("sep=|\nid|day\n")).toBeNull();
  });

  it("reads a BOM, a sep= line, quoted cells with delimiters, quotes, JSON and line breaks, in any chunking", async () => {
    const text = '\ufeffsep=;\r\nid;contributors;day\r\na;"{""x"":1;""y"":2}";2026-01-01\r\nb;"two\nlines";2026-01-02\r\n\r\n';
    const { head, rows } = await readAll(text);
    expect(head).toEqual({ header: ["id", "contributors", "day"], delimiter: ";", headerLine: 2 });
    expect(rows).toEqual([
      { row: 1, cells: ["a", '{"x":1;"y":2}', "2026-01-01"] },
      { row: 2, cells: ["b", "two\nlines", "2026-01-02"] },
    ]);
  });

  it("refuses, naming the file and the row: an unknown delimiter, a row with another number of cells, an unclosed quote", async () => {
    expect(await refusal(readAll("id|day\n1|2\n", "dailysleep.csv"))).toBe(
      "dailysleep.csv, line 1: the delimiter is not one Ringside reads (semicolon, comma or tab).",
    );
    const mismatch = await refusal(readAll("id;day;score\na;2026-01-01;80\nb;2026-01-02\n", "dailysleep.csv"));
    expect(mismatch).toContain("dailysleep.csv, row 2");
    expect(mismatch).toContain("mismatched column count");
    expect(await refusal(readAll('id;day\n"a;2026-01-01\n', "x.csv"))).toContain("x.csv");
    // an empty file is no error: a data type the person never had
    expect(await readAll("\ufeff", "empty.csv")).toEqual({ head: { header: [], delimiter: ";", headerLine: 1 }, rows: [] });
  });
});

describe("file and entry names", () => {
  it("maps the export's files whatever their casing, separators or oura prefix", () => {
    expect(fileKey("App Data/DailySleep.csv")).toBe("dailysleep");
    const cases: Array<[file: string, collection: string | null]> = [
      ["App Data/DailySleep.csv", "daily_sleep"],
      ["OuraDailyReadiness.csv", "daily_readiness"],
      ["oura_daily_cardiovascular_age.csv", "daily_cardiovascular_age"],
      ["SleepModel.csv", "sleep"],
      ["vo2max.csv", "vO2_max"],
      ["heartrate.csv", "heartrate"],
      ["RingBatteryLevel.csv", "ring_battery_level"],
      ["meal.csv", null],
      ["personalinfo.csv", null],
      ["DailyCyclePhases.csv", "daily_cycle_phases"],
      ["dailycyclephases.csv", "daily_cycle_phases"],
    ];
    for (const [file, collection] of cases) expect(collectionForFile(file), file).toBe(collection);
  });

  it("finds the data folder by its dailysleep or dailyactivity file", () => {
    expect(dataFolderOf(["README.txt", "Oura/csv/App Data/meal.csv", "Oura/csv/App Data/DailyActivity.csv"])).toBe("Oura/csv/App Data");
    expect(dataFolderOf(["heartrate.csv"])).toBeNull();
  });

  it("refuses path tricks in entry names", () => {
    expect(entryNameProblem("App Data/dailysleep.csv")).toBeNull();
    const refused: Array<[name: string, problem: string]> = [
      ["../dailysleep.csv", "outside the archive"],
      ["App Data/../../etc/passwd", "outside the archive"],
      ["/etc/passwd", "absolute path"],
      ["C:/Windows/x.csv", "absolute path"],
      ["App Data\\..\\x.csv", "backslash"],
      ["a\u0000b.csv", "control character"],
    ];
    for (const [name, problem] of refused) expect(entryNameProblem(name), name).toContain(problem);
  });
});

describe("a row into a document", () => {
  it("reads each cell as the schema types it; empty is null; unknown columns are left out and counted", () => {
    const header = ["Score", "ID", "day", "contributors", "timestamp", "export_note"];
    const reader = rowReader("daily_sleep", header, "dailysleep.csv", NOW);
    expect(reader.unknownColumns).toEqual(["export_note"]);
    expect(reader.read(["81", "abc", "2026-01-05", '{"deep_sleep":70,"timing":null}', "2026-01-05T00:00:00+00:00", "zzz"], 1)).toEqual({
      score: 81,
      id: "abc",
      day: "2026-01-05",
      contributors: { deep_sleep: 70, timing: null },
      timestamp: "2026-01-05T00:00:00+00:00",
    });
    expect(reader.read(["", "abc", "2026-01-05", "", "", ""], 2)).toMatchObject({ score: null, contributors: null });
    // a number that is not one stays text, for the schema to reject (as a sync would)
    expect(reader.read(["lots", "abc", "2026-01-05", "{}", "t", ""], 3).score).toBe("lots");
    const sleep = rowReader("sleep", ["id", "day", "low_battery_alert", "movement_30_sec"], "sleepmodel.csv", NOW);
    expect(sleep.read(["s", "2026-01-05", "False", "0011"], 1)).toEqual({ id: "s", day: "2026-01-05", low_battery_alert: false, movement_30_sec: "0011" });
  });

  it("reads the cycle phases' fields of unknown type as they look: numbers, true or false, JSON of objects, else text", () => {
    const reader = rowReader("daily_cycle_phases", ["id", "day", "cycle_day", "phase", "predicted", "fertile_window"], "dailycyclephases.csv", NOW);
    expect(reader.unknownColumns).toEqual(["fertile_window"]);
    expect(reader.read(["c", "2026-01-05", "12", "luteal", "false", "x"], 1)).toEqual({
      id: "c",
      day: "2026-01-05",
      cycle_day: 12,
      phase: "luteal",
      predicted: false,
    });
    // a value Ringside does not know stays as it is written; an empty cell is null, a quoted empty one an empty text
    expect(reader.read(["c", "2026-01-06", "day 3", "late_luteal", "TRUE", ""], 2)).toMatchObject({
      cycle_day: "day 3",
      phase: "late_luteal",
      predicted: true,
    });
    expect(reader.read(["c", "2026-01-07", "", '{"a":1}', "[1", ""], 3)).toMatchObject({ cycle_day: null, phase: { a: 1 }, predicted: "[1" });
  });

  it("refuses malformed JSON in a cell, a day outside the plausible range, a file without its day column", () => {
    const reader = rowReader("daily_sleep", ["id", "day", "contributors"], "dailysleep.csv", NOW);
    expect(() => reader.read(["a", "2026-01-05", "{deep_sleep: 70"], 7)).toThrow("dailysleep.csv, row 7, column `contributors`: the cell is not valid JSON.");
    expect(() => reader.read(["a", "1999-01-05", "{}"], 8)).toThrow(
      /dailysleep.csv, row 8: the day "1999-01-05" is not a day between 2013-01-01 and 2026-03-17/,
    );
    expect(() => reader.read(["a", "2031-01-05", "{}"], 9)).toThrow(/row 9/);
    expect(() => reader.read(["a", "2026-02-30", "{}"], 10)).toThrow(/row 10/);
    expect(() => rowReader("daily_sleep", ["id", "score"], "dailysleep.csv", NOW)).toThrow("dailysleep.csv: the header has no `day` column");
    const hr = rowReader("heartrate", ["timestamp", "bpm", "source"], "heartrate.csv", NOW);
    expect(hr.read(["2026-01-05T08:00:00+01:00", "61", "awake"], 1)).toEqual({ timestamp: "2026-01-05T08:00:00+01:00", bpm: 61, source: "awake" });
    expect(() => hr.read(["yesterday", "61", "awake"], 2)).toThrow(/heartrate.csv, row 2: the timestamp "yesterday"/);
  });

  it("plausible days: real calendar days from 2013 to two days after now", () => {
    expect(isPlausibleDay("2013-01-01", NOW)).toBe(true);
    expect(isPlausibleDay("2026-03-17", NOW)).toBe(true);
    expect(isPlausibleDay("2026-03-18", NOW)).toBe(false);
    expect(isPlausibleDay("2012-12-31", NOW)).toBe(false);
    expect(isPlausibleDay("2025-02-29", NOW)).toBe(false);
  });

  it("tells a file uploaded under another name by its columns", () => {
    expect(collectionForHeader(["id", "day", "vascular_age", "pulse_wave_velocity"], ["daily_sleep", "daily_cardiovascular_age"])).toBe(
      "daily_cardiovascular_age",
    );
    expect(collectionForHeader(["timestamp", "bpm", "source"], ["daily_sleep", "heartrate"])).toBe("heartrate");
    expect(collectionForHeader(["id", "day", "meal_type", "calories", "photo"], ["daily_sleep", "heartrate"])).toBeNull();
  });
});

describe("the Trends CSV", () => {
  const OLD = [
    "date",
    "Sleep Score",
    "Total Sleep Time",
    "REM Sleep Time",
    "Average HRV",
    "Lowest Resting Heart Rate",
    "Temperature Deviation (°C)",
    "Readiness Score",
    "Activity Score",
    "Steps",
    "Sleep Timing",
    "Sleep Timing",
  ];
  const NEW = [
    "date",
    "Sleep Score",
    "Total Sleep Duration",
    "REM Sleep Duration",
    "Average HRV",
    "Lowest Resting Heart Rate",
    "Temperature Deviation (°C)",
    "Temperature Trend Deviation",
    "Readiness Score",
    "Activity Score",
    "Steps",
  ];

  it("is told by its header", () => {
    expect(isTrendsHeader(OLD)).toBe(true);
    expect(isTrendsHeader(NEW)).toBe(true);
    expect(isTrendsHeader(["id", "day", "score"])).toBe(false);
  });

  it("reads both header spellings into the same documents, one per collection the row has cells for", () => {
    const a = trendsReader(OLD, "trends.csv", NOW).read(["2026-01-05", "80", "27000", "5400", "45", "52", "-0.2", "77", "90", "8000", "", ""], 1);
    const b = trendsReader(NEW, "trends.csv", NOW).read(["2026-01-05", "80", "27000", "5400", "45", "52", "-0.2", "", "77", "90", "8000"], 1);
    expect(a).toEqual(b);
    expect(a).toEqual([
      { collection: "daily_sleep", doc: { id: "trends:2026-01-05", day: "2026-01-05", score: 80 } },
      { collection: "daily_readiness", doc: { id: "trends:2026-01-05", day: "2026-01-05", temperature_deviation: -0.2, score: 77 } },
      { collection: "daily_activity", doc: { id: "trends:2026-01-05", day: "2026-01-05", score: 90, steps: 8000 } },
      {
        collection: "sleep",
        doc: {
          id: "trends:2026-01-05",
          day: "2026-01-05",
          total_sleep_duration: 27000,
          rem_sleep_duration: 5400,
          average_hrv: 45,
          lowest_heart_rate: 52,
          type: "long_sleep",
        },
      },
    ]);
    // a day without the ring: no document
    expect(trendsReader(NEW, "trends.csv", NOW).read(["2026-01-06", "", "", "", "", "", "", "", "", "", ""], 2)).toEqual([]);
    expect(trendsReader(OLD, "trends.csv", NOW).unknownColumns).toEqual(["Sleep Timing", "Sleep Timing"]);
  });

  it("refuses a date out of range or a cell that is not a number, naming the row", () => {
    const r = trendsReader(NEW, "trends.csv", NOW);
    expect(() => r.read(["2009-01-01", "80", "", "", "", "", "", "", "", "", ""], 4)).toThrow(/trends.csv, row 4: the date/);
    expect(() => r.read(["2026-01-01", "eighty", "", "", "", "", "", "", "", "", ""], 5)).toThrow('trends.csv, row 5: the cell "Sleep Score" is not a number.');
  });
});
