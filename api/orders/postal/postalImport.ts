import { parse as parseCsv } from 'csv-parse/sync';
import {
  POSTAL_CSV_COLUMNS,
  PostalEntryInputSchema,
  type PostalImportResult,
  type PostalImportRow,
} from '../../../contract/postal';
import { parse } from '../../http/validate';
import type { Actor } from '../../platform/auditLog';
import { badRequest, HttpError } from '../../platform/errors';
import { addPostalEntry, type PostalDeps } from './postalEntries';

// A day's post as CSV (csv-parse: quoted fields, line breaks inside a quoted address, a BOM from
// Excel). A file that cannot be read as a whole is refused with nothing applied. Otherwise each
// row is one postcard, recorded in its own unit of work exactly as 'Add postal entry' records it:
// a refused row changes nothing, and the report says which rows got which number and why the
// others were refused.

export const MAX_IMPORT_ROWS = 1000;
const REQUIRED = POSTAL_CSV_COLUMNS.filter((c) => c !== 'userId');

type Record_ = Partial<Record<(typeof POSTAL_CSV_COLUMNS)[number], string>>;

function readRows(csv: string): Record_[] {
  let header: string[] = [];
  let rows: Record_[];
  try {
    rows = parseCsv(csv, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      columns: (names: string[]) => {
        header = names.map((n) => n.trim());
        return header;
      },
    }) as Record_[];
  } catch (err) {
    throw badRequest(`The CSV file could not be read: ${(err as Error).message}`);
  }
  const unknown = header.filter((h) => !(POSTAL_CSV_COLUMNS as readonly string[]).includes(h));
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length || unknown.length) {
    throw badRequest(
      `The CSV header must name the columns ${POSTAL_CSV_COLUMNS.join(', ')} (userId may be left out)` +
        `${missing.length ? `; missing: ${missing.join(', ')}` : ''}` +
        `${unknown.length ? `; not recognised: ${unknown.join(', ')}` : ''}.`,
    );
  }
  if (!rows.length) throw badRequest('The CSV file has no entries below its header.');
  if (rows.length > MAX_IMPORT_ROWS)
    throw badRequest(`A CSV import takes at most ${MAX_IMPORT_ROWS} entries; split the file.`);
  return rows;
}

async function importRow(
  deps: PostalDeps,
  actor: Actor,
  competitionId: number,
  raw: Record_,
  row: number,
): Promise<PostalImportRow> {
  const name = raw.name?.trim() || null;
  try {
    const entry = await addPostalEntry(deps, actor, competitionId, parse(PostalEntryInputSchema, raw));
    return { row, outcome: 'entered', name: entry.name, number: Number(entry.number) };
  } catch (err) {
    if (err instanceof HttpError) return { row, outcome: 'refused', name, reason: err.message };
    deps.logger.error({ err, competitionId, row }, 'postal import row failed');
    return { row, outcome: 'refused', name, reason: 'Unexpected error: this row was not entered.' };
  }
}

/** Records every row it can, one by one in file order (so the numbers follow the post's order). */
export async function importPostalEntries(
  deps: PostalDeps,
  actor: Actor,
  competitionId: number,
  csv: string,
): Promise<PostalImportResult> {
  const rows = readRows(csv);
  const results: PostalImportRow[] = [];
  for (const [i, raw] of rows.entries())
    results.push(await importRow(deps, actor, competitionId, raw, i + 1));
  const entered = results.filter((r) => r.outcome === 'entered').length;
  return { entered, refused: results.length - entered, rows: results };
}
