import type { ReactNode } from 'react';

/** A column of a console list. */
interface AdminColumn<Row> {
  /** The column's header (`<th scope="col">`); null for a column of a row's controls (select, retry), which has none. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell names its row (a list's email, code or status): a row header, `<th scope="row">`. */
  rowHeader?: boolean;
  /** Figures: right-aligned, each digit as wide as the next. */
  numeric?: boolean;
  /** More classes for the column's cells: wrapping, type. */
  className?: string;
}

interface AdminTableProps<Row> {
  /** The list's name: the table's caption, read by screen readers, and the label of the region around it. */
  caption: string;
  /** In their order; `false` leaves a column out (one the admin may not use). */
  columns: readonly (AdminColumn<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  rowTestId?: (row: Row) => string;
  /** Said below the headers when there are no rows. */
  empty?: ReactNode;
  /** The region's classes beyond its scrolling (its margin). */
  className?: string;
  /** The table's least width, below which the region scrolls (`min-w-[40rem]`). */
  minWidth?: string;
  /** What follows the list inside its region: the way to more pages. */
  children?: ReactNode;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/**
 * The console's lists, one table (ADR 045–049): a region of its own that scrolls sideways on a
 * phone, by keyboard too, named like the table's caption; column headers with their scope, the
 * column that names a row as row headers, and a sentence when the list is empty.
 */
export function AdminTable<Row>({ caption, columns, rows, rowKey, rowTestId, empty, className, minWidth, children }: AdminTableProps<Row>) {
  const shown = columns.filter((column): column is AdminColumn<Row> => column !== false);
  const spacing = (index: number) => (index === shown.length - 1 ? 'py-3' : 'py-3 pr-4');
  return (
    <div className={classes(className, 'overflow-x-auto')} role="region" aria-label={caption} tabIndex={0}>
      <table className={classes('w-full', minWidth, 'text-left text-sm text-paper')}>
        <caption className="sr-only">{caption}</caption>
        <thead className="eyebrow text-paper/70">
          <tr>
            {shown.map((column, i) =>
              column.header === null ? (
                <td key={i} className={spacing(i)} />
              ) : (
                <th key={i} scope="col" className={classes(spacing(i), column.numeric && 'text-right')}>
                  {column.header}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={rowKey(row, r)} className="border-t border-paper/20 align-top" data-testid={rowTestId?.(row)}>
              {shown.map((column, i) => {
                const cellClasses = classes(spacing(i), column.numeric && 'text-right tabular-nums', column.className);
                return column.rowHeader ? (
                  <th key={i} scope="row" className={classes(cellClasses, 'font-normal')}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={i} className={cellClasses}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && empty && <p className="mt-6">{empty}</p>}
      {children}
    </div>
  );
}
