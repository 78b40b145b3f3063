import { describe, expect, it } from 'vitest';
import { mailboxHash, normaliseMailbox } from '../../api/accounts/security/mailbox';

describe('normaliseMailbox: one welcome credit per mailbox', () => {
  it.each([
    ['J.Smith+prizes@GoogleMail.com', 'jsmith@gmail.com'],
    ['j.s.m.i.t.h@gmail.com', 'jsmith@gmail.com'],
    ['Pat+one@outlook.com', 'pat@outlook.com'],
    ['pat.rowe+x@hotmail.co.uk', 'pat.rowe@hotmail.co.uk'],
    ['pat+tag@live.com', 'pat@live.com'],
    ['pat+tag@icloud.com', 'pat@icloud.com'],
    ['  Pat@Example.CO.UK ', 'pat@example.co.uk'],
  ])('%s is the mailbox %s', (address, mailbox) => {
    expect(normaliseMailbox(address)).toBe(mailbox);
  });

  it('keeps dots and + where a provider may treat them as part of the address', () => {
    expect(normaliseMailbox('pat+tag@example.org')).toBe('pat+tag@example.org');
    expect(normaliseMailbox('p.at@outlook.com')).toBe('p.at@outlook.com');
  });

  it('stores a hash of the mailbox, not the address', () => {
    expect(mailboxHash('J.Smith+a@gmail.com')).toBe(mailboxHash('jsmith@googlemail.com'));
    expect(mailboxHash('jsmith@gmail.com')).toMatch(/^[0-9a-f]{64}$/);
  });
});
