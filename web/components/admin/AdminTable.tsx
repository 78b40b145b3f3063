import type { Key, ReactNode } from 'react';
import { ErrorBox } from '../ui/Form';
import { Spinner } from '../ui/Spinner';
import { Muted, RowActions, Table, TableWrap } from './AdminUi';

export interface AdminColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** 'num' or 'nowrap' (see Table). */
  className?: string;
}

/**
 * The admin list skeleton: a spinner until the first answer, an alert when loading failed and
 * nothing is shown yet, a muted line when the list is empty, otherwise the table. Rows already
 * shown stay on screen through a failed or slow reload.
 */
export function AdminTable<T>({
  label,
  columns,
  rows,
  error,
  loadingLabel,
  errorText,
  errorView,
  empty,
  rowKey,
  rowTestId,
  actions,
  footer,
}: {
  /** The table's accessible name. */
  label: string;
  columns: ReadonlyArray<AdminColumn<T>>;
  /** undefined until the first load answers. */
  rows: readonly T[] | undefined;
  error: Error | undefined;
  loadingLabel: string;
  /** The text of the standard alert when loading failed. */
  errorText?: (error: Error) => ReactNode;
  /** Replaces the standard alert (a screen with its own error panel). */
  errorView?: ReactNode;
  empty: ReactNode;
  rowKey: (row: T) => Key;
  rowTestId?: string;
  /** Buttons for one row, in a last "Actions" column. */
  actions?: (row: T) => ReactNode;
  /** Shown under the table when there are rows (a pager). */
  footer?: ReactNode;
}) {
  if (error && !rows)
    return errorView ?? <ErrorBox role="alert">{errorText ? errorText(error) : error.message}</ErrorBox>;
  if (!rows) return <Spinner label={loadingLabel} />;
  if (rows.length === 0) return <Muted>{empty}</Muted>;
  return (
    <>
      <TableWrap>
        <Table aria-label={label}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header}>{c.header}</th>
              ))}
              {actions && <th>Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)} data-testid={rowTestId}>
                {columns.map((c) => (
                  <td key={c.header} className={c.className}>
                    {c.cell(row)}
                  </td>
                ))}
                {actions && (
                  <td>
                    <RowActions>{actions(row)}</RowActions>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      </TableWrap>
      {footer}
    </>
  );
}
