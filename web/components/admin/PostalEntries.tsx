import { type FormEvent, useRef, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { formatShortDate } from '../../../contract/londonTime';
import type { PostalEntryView, PostalImportResult } from '../../../contract/postal';
import { call } from '../../api/call';
import { errorDetails, FieldErrorsSchema } from '../../api/client';
import { Button } from '../ui/Button';
import { Field, Form, TextAreaField } from '../ui/Form';
import { AdminTable } from './AdminTable';
import { FieldRow, Muted, Table, TableWrap } from './AdminUi';
import { useAdminRoute } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

// The free postal entry route on an admin competition page (docs/product.md#free-postal-entry):
// 'Add postal entry', the CSV import of a day's post and the list of postal entries.

const FileField = styled.div`
  display: grid;
  gap: 4px;
  label { font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
`;

const Section = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  h3 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.md}; }
  & + & { margin-top: ${({ theme }) => theme.space.lg}; }
  .pre { white-space: pre-line; }
`;

const today = () => new Date().toISOString().slice(0, 10);
const EMPTY = {
  name: '',
  email: '',
  address: '',
  postcode: '',
  receivedAt: today(),
  answer: '',
  userId: '',
};
type Values = typeof EMPTY;

function AddPostalEntryForm({ competitionId, onAdded }: { competitionId: number; onAdded: () => void }) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useAdminMutation();
  const bind = (key: keyof Values) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value }),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const { userId, ...rest } = values;
    const created = await run(
      () =>
        call(ADMIN_ORDER_ROUTES.addPostalEntry, {
          params: { id: competitionId },
          body: { ...rest, ...(userId.trim() ? { userId: userId.trim() } : {}) },
        }).catch((err) => {
          setErrors(errorDetails(err, FieldErrorsSchema)?.fields ?? {});
          throw err;
        }),
      {
        success: (r) => ({ title: 'Postal entry added', description: `Ticket number ${r.number}.` }),
        failureTitle: 'Could not add the postal entry',
        fallback: 'Please try again.',
      },
    );
    if (created) {
      setValues({ ...EMPTY, receivedAt: values.receivedAt });
      onAdded();
    }
  };

  return (
    <Form onSubmit={submit} aria-label="Add postal entry">
      <FieldRow>
        <Field id="postalName" label="Name" maxLength={200} required {...bind('name')} />
        <Field id="postalEmail" label="E-mail" type="email" maxLength={254} required {...bind('email')} />
      </FieldRow>
      <TextAreaField
        id="postalAddress"
        label="Address"
        rows={3}
        maxLength={500}
        required
        {...bind('address')}
      />
      <Field
        id="postalAnswer"
        label="Answer to the skill question"
        maxLength={100}
        required
        {...bind('answer')}
      />
      <FieldRow>
        <Field id="postalPostcode" label="Postcode" maxLength={10} required {...bind('postcode')} />
        <Field
          id="postalReceivedAt"
          label="Date received"
          type="date"
          max={today()}
          required
          {...bind('receivedAt')}
        />
        <Field
          id="postalUserId"
          label="Customer account id (optional)"
          inputMode="numeric"
          {...bind('userId')}
        />
      </FieldRow>
      <Button type="submit" disabled={busy}>
        {busy ? 'Adding...' : 'Add postal entry'}
      </Button>
    </Form>
  );
}

function ImportPostalEntries({
  competitionId,
  onImported,
}: {
  competitionId: number;
  onImported: () => void;
}) {
  const file = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<PostalImportResult | null>(null);
  const { busy, run } = useAdminMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) return;
    const csv = await chosen.text();
    const answer = await run(
      () => call(ADMIN_ORDER_ROUTES.importPostalEntries, { params: { id: competitionId }, body: { csv } }),
      {
        success: (r) => ({
          title: 'CSV imported',
          description: `${r.entered} entered, ${r.refused} refused.`,
        }),
        failureTitle: 'Could not import the CSV file',
        fallback: 'Please check the file and try again.',
      },
    );
    if (answer) {
      setResult(answer);
      onImported();
    }
  };

  return (
    <>
      <Muted>
        A header row naming the columns name, email, address, postcode, receivedAt (YYYY-MM-DD), answer (the
        postcard's answer to the skill question) and, optionally, userId. Each row is entered on its own: a
        refused row changes nothing.
      </Muted>
      <Form onSubmit={submit} aria-label="Import postal entries">
        <FileField>
          <label htmlFor="postalCsv">CSV file</label>
          <input id="postalCsv" name="postalCsv" type="file" accept=".csv,text/csv" ref={file} required />
        </FileField>
        <Button type="submit" disabled={busy}>
          {busy ? 'Importing...' : 'Import CSV'}
        </Button>
      </Form>
      {result && (
        <TableWrap>
          <Table aria-label="Import results">
            <thead>
              <tr>
                <th>Row</th>
                <th>Name</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((r) => (
                <tr key={r.row} data-testid="postal-import-row">
                  <td className="num">{r.row}</td>
                  <td>{r.name ?? ''}</td>
                  <td>{r.outcome === 'entered' ? `Entered: number ${r.number}` : `Refused: ${r.reason}`}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableWrap>
      )}
    </>
  );
}

/** The columns; the entry whose order won the draw says so (its contact details are here). */
const columnsFor = (winnerOrderId: number | null) => [
  { header: 'Number', className: 'num', cell: (e: PostalEntryView) => e.number },
  { header: 'Name', cell: (e: PostalEntryView) => e.name },
  { header: 'E-mail', cell: (e: PostalEntryView) => e.email },
  {
    header: 'Address',
    cell: (e: PostalEntryView) => <span className="pre">{`${e.address}\n${e.postcode}`}</span>,
  },
  { header: 'Received', className: 'nowrap', cell: (e: PostalEntryView) => formatShortDate(e.receivedAt) },
  { header: 'Answer', cell: (e: PostalEntryView) => e.answer ?? 'Not recorded' },
  { header: 'Account', cell: (e: PostalEntryView) => e.username ?? 'None' },
  {
    header: 'Status',
    cell: (e: PostalEntryView) =>
      e.orderId === winnerOrderId ? 'Winner' : e.status === 'entered' ? 'Entered' : 'Cancelled',
  },
];

/** The competition's postal entries; `open` is false once it closed (entries are refused then). */
export function PostalEntries({
  competitionId,
  open,
  winnerOrderId,
  onChanged,
}: {
  competitionId: number;
  open: boolean;
  /** The winning ticket's order once drawn. */
  winnerOrderId: number | null;
  onChanged: () => void;
}) {
  const list = useAdminRoute(ADMIN_ORDER_ROUTES.postalEntries, { params: { id: competitionId } });
  const changed = () => {
    list.reload();
    onChanged();
  };
  return (
    <>
      {open ? (
        <>
          <Section>
            <h3>Add postal entry</h3>
            <AddPostalEntryForm competitionId={competitionId} onAdded={changed} />
          </Section>
          <Section>
            <h3>Import a day's post (CSV)</h3>
            <ImportPostalEntries competitionId={competitionId} onImported={changed} />
          </Section>
        </>
      ) : (
        <Muted>This competition is closed: postal entries can no longer be added.</Muted>
      )}
      <Section>
        <h3>Postal entries received</h3>
        <AdminTable
          label="Postal entries"
          columns={columnsFor(winnerOrderId)}
          rows={list.data?.entries}
          error={list.error}
          loadingLabel="Loading postal entries"
          empty="No postal entries yet."
          rowKey={(e) => e.id}
          rowTestId="postal-entry-row"
        />
      </Section>
    </>
  );
}
