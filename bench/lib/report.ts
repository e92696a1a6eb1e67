/** One row of a benchmark table: a figure, the reference measured in the same run, the target. */
export interface Row {
  name: string;
  value: string;
  reference: string;
  ratio: string;
  target: string;
  met: boolean | null;
}

/** A suite's table, and lines printed after it (a summary the last line of the run). */
export interface SuiteResult {
  rows: Row[];
  lines: string[];
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 1)} MB`;

export function printTable(title: string, rows: Row[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| measure | value | reference (same run) | ratio | target | met |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const met = r.met === null ? '' : r.met ? 'met' : 'NOT met';
    console.log(`| ${r.name} | ${r.value} | ${r.reference} | ${r.ratio} | ${r.target} | ${met} |`);
  }
}
