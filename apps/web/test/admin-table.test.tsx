/**
 * The console's lists share one table (AdminTable): what a screen reader and the e2e suite find
 * by role and name — the scrolling region named like the caption, column headers with their
 * scope, the column that names a row as row headers, a column of controls without a header, and
 * a sentence for an empty list.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AdminTable } from '../app/components/admin-table.tsx';

interface Code {
  code: string;
  balance: number;
}

function render(rows: Code[], withControls = true) {
  return renderToStaticMarkup(
    <AdminTable
      caption="Invitations"
      className="mt-10"
      minWidth="min-w-[36rem]"
      rows={rows}
      rowKey={(row) => row.code}
      rowTestId={(row) => `code-${row.code}`}
      empty="No invitations yet."
      columns={[
        withControls && { header: null, cell: (row) => <input type="checkbox" name="codes" value={row.code} /> },
        { header: 'Code', rowHeader: true, className: 'font-mono', cell: (row) => row.code },
        { header: 'Balance', numeric: true, cell: (row) => row.balance },
      ]}
    >
      <a href="?after=B">Older</a>
    </AdminTable>,
  );
}

describe('a console list', () => {
  it('is a region named like its caption, with column headers, row headers and a control column without a header', () => {
    const html = render([
      { code: 'ALPHA', balance: 3 },
      { code: 'BRAVO', balance: 12 },
    ]);
    expect(html).toMatch(/^<div class="mt-10 overflow-x-auto" role="region" aria-label="Invitations" tabindex="0"><table class="w-full min-w-\[36rem\] text-left text-sm text-paper">/);
    expect(html).toContain('<caption class="sr-only">Invitations</caption>');
    expect(html).toContain('<thead class="eyebrow text-paper/70"><tr><td class="py-3 pr-4"></td><th scope="col" class="py-3 pr-4">Code</th><th scope="col" class="py-3 text-right">Balance</th></tr></thead>');
    expect(html).toContain(
      '<tr class="border-t border-paper/20 align-top" data-testid="code-ALPHA"><td class="py-3 pr-4"><input type="checkbox" name="codes" value="ALPHA"/></td><th scope="row" class="py-3 pr-4 font-mono font-normal">ALPHA</th><td class="py-3 text-right tabular-nums">3</td></tr>',
    );
    expect(html.match(/scope="row"/g)).toHaveLength(2);
    expect(html).not.toContain('No invitations yet.');
    expect(html).toMatch(/<\/table><a href="\?after=B">Older<\/a><\/div>$/);
  });

  it('says so when it is empty, and leaves out a column the admin may not use', () => {
    const html = render([], false);
    expect(html).toContain('<tbody></tbody></table><p class="mt-6">No invitations yet.</p>');
    expect(html).toContain('<tr><th scope="col" class="py-3 pr-4">Code</th><th scope="col" class="py-3 text-right">Balance</th></tr>');
  });
});
