import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../web/api/client';
import { AdminTable } from '../../web/components/admin/AdminTable';
import { ConfirmDialog } from '../../web/components/admin/ConfirmDialog';
import { useConfirmedDelete } from '../../web/components/admin/useConfirmedDelete';
import { Toaster } from '../../web/components/layout/Toaster';
import { useToast } from '../../web/stores/toast';
import { renderWithTheme } from './render';

interface Prize {
  id: number;
  title: string;
}

const prizes: Prize[] = [
  { id: 1, title: 'Weekend in Whitby' },
  { id: 2, title: 'Cordless Drill' },
];

const table = (props: { rows: Prize[] | undefined; error?: Error }) =>
  renderWithTheme(
    <AdminTable
      label="Prizes"
      rows={props.rows}
      error={props.error}
      loadingLabel="Loading prizes"
      errorText={(e) => `Error loading prizes: ${e.message}`}
      empty="No prizes yet."
      rowKey={(p) => p.id}
      columns={[{ header: 'Title', cell: (p) => p.title }]}
      actions={(p) => <button type="button">Delete {p.title}</button>}
    />,
  );

describe('AdminTable', () => {
  afterEach(() => cleanup());

  it('shows a spinner until the first answer', () => {
    table({ rows: undefined });
    expect(screen.getByRole('status', { name: 'Loading prizes' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the error when loading failed and nothing is on screen yet', () => {
    table({ rows: undefined, error: new Error('Server unavailable') });
    expect(screen.getByRole('alert').textContent).toBe('Error loading prizes: Server unavailable');
    expect(screen.queryByRole('status', { name: 'Loading prizes' })).toBeNull();
  });

  it('keeps rows already shown when a reload fails', () => {
    table({ rows: prizes, error: new Error('Server unavailable') });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('cell', { name: 'Cordless Drill' })).toBeTruthy();
  });

  it('says so when the list is empty', () => {
    table({ rows: [] });
    expect(screen.getByText('No prizes yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the columns, an Actions column and one row per item', () => {
    table({ rows: prizes });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Title', 'Actions']);
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Delete Weekend in Whitby' })).toBeTruthy();
  });
});

function PrizeList({ remove, refresh }: { remove: (p: Prize) => Promise<unknown>; refresh: () => void }) {
  const deleting = useConfirmedDelete<Prize>({
    remove,
    toasts: {
      success: (p) => ({ title: 'Prize deleted', description: p.title }),
      failureTitle: 'Delete failed',
      fallback: 'The prize could not be deleted',
    },
    refresh,
  });
  return (
    <>
      <button type="button" onClick={() => deleting.ask(prizes[0]!)}>
        Delete
      </button>
      <ConfirmDialog {...deleting.dialog} title="Delete Prize" confirmLabel="Delete Prize">
        <p>Delete “{deleting.target?.title}”?</p>
      </ConfirmDialog>
      <Toaster />
    </>
  );
}

describe('useConfirmedDelete', () => {
  afterEach(() => {
    cleanup();
    useToast.getState().dismiss();
  });

  const setup = (remove: (p: Prize) => Promise<unknown>) => {
    const refresh = vi.fn();
    const removeSpy = vi.fn(remove);
    renderWithTheme(<PrizeList remove={removeSpy} refresh={refresh} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Delete “Weekend in Whitby”?')).toBeTruthy();
    return { refresh, remove: removeSpy };
  };

  it('does nothing when the admin cancels', async () => {
    const { refresh, remove } = setup(async () => ({}));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Delete “Weekend in Whitby”?')).toBeNull());
    expect(remove).not.toHaveBeenCalled();
    expect(refresh).not.toHaveBeenCalled();
    expect(screen.queryByTestId('toast')).toBeNull();
  });

  it('deletes on confirm, says so and refreshes the list', async () => {
    const { refresh, remove } = setup(async () => ({ success: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Prize' }));
    expect(await screen.findByText('Prize deleted')).toBeTruthy();
    expect(screen.getByTestId('toast').textContent).toContain('Weekend in Whitby');
    expect(remove).toHaveBeenCalledWith(prizes[0]);
    expect(refresh).toHaveBeenCalledOnce();
    expect(screen.queryByText('Delete “Weekend in Whitby”?')).toBeNull();
  });

  it("shows the server's message when the delete is refused, and does not refresh", async () => {
    const { refresh } = setup(async () => {
      const message = 'A competition with sold tickets cannot be deleted';
      throw new ApiError(409, `409: {"message":"${message}"}`, message, 'conflict');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Prize' }));
    expect(await screen.findByText('Delete failed')).toBeTruthy();
    expect(screen.getByText('A competition with sold tickets cannot be deleted')).toBeTruthy();
    expect(refresh).not.toHaveBeenCalled();
  });
});
