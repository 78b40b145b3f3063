/** 'Sarah Trelawny', or '' when neither name is known. */
export const fullName = (u: { firstName: string | null; lastName: string | null }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ');
