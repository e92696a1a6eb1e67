/*
 * One CSV cell, safe to open in a spreadsheet: every CSV the app exports (questions, speakers'
 * links, the admin's lists, polls) writes its cells with it.
 */

/** A cell a spreadsheet would run as a formula starts with one of these (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A cell that starts with a character that prints nothing (a bidi control, a zero-width space)
 * hides what comes after it, and a spreadsheet may drop it and read a formula.
 */
const INVISIBLE_START = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** Whether a spreadsheet could take a text for a formula: full-width `＝` counts as `=`. */
const looksLikeFormula = (text: string): boolean =>
  FORMULA_START.test(text) ||
  INVISIBLE_START.test(text) ||
  // NFKC makes the full-width and small forms (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫) the ASCII ones.
  FORMULA_START.test(text.slice(0, 2).normalize('NFKC'));

/**
 * One CSV cell: a formula-looking text (an ASCII, full-width or small `=`, `+`, `-`, `@`, a tab
 * or carriage return first, or a character that prints nothing) gets a leading apostrophe;
 * quotes doubled (RFC 4180).
 */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === 'string' && looksLikeFormula(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}
