import type { Knex } from 'knex';
import {
  NICKNAME_REFUSED,
  NICKNAME_TAKEN,
  type PublicNameInput,
  type PublicNameMode,
  type PublicNameView,
} from '../../../contract/publicNames';
import { isUniqueViolation } from '../../../db/dialect';
import { lockRows } from '../../../db/locks';
import { publicOwnerName } from '../../catalogue/presenter';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { inUnitOfWork, type UnitOfWorkDeps } from '../../platform/unitOfWork';
import { isRefusedNickname } from './nicknameWords';

// How a customer appears in public (docs/product.md#public-names-and-winner-stories): the choice
// is read by publicOwnerName (api/catalogue/presenter.ts) wherever a name is published.

const NAME_COLUMNS = [
  'firstName',
  'lastName',
  'username',
  'deletedAt',
  'publicNameMode',
  'nickname',
] as const;

type NameRow = Pick<
  Parameters<typeof publicOwnerName>[0],
  'firstName' | 'lastName' | 'username' | 'deletedAt' | 'publicNameMode' | 'nickname'
>;

const present = (u: NameRow): PublicNameView => ({
  mode: (u.publicNameMode ?? 'initial') as PublicNameMode,
  nickname: u.publicNameMode === 'nickname' ? (u.nickname ?? null) : null,
  shownAs: publicOwnerName(u),
  initialName: publicOwnerName({ ...u, publicNameMode: 'initial' }),
});

const liveUser = (db: Knex, userId: number) => db('users').where({ id: userId }).whereNull('deletedAt');

/** GET /api/account/public-name. */
export async function publicNameOf(db: Knex, userId: number): Promise<PublicNameView> {
  const u = (await liveUser(db, userId).first(...NAME_COLUMNS)) as NameRow | undefined;
  if (!u) throw notFound('User not found');
  return present(u);
}

/**
 * PUT /api/account/public-name. A nickname is moderated (400) and unique whatever its case (409, by
 * the unique index, so two customers asking at once cannot both have it); another mode releases it.
 * The customer's instant wins, which keep the name they were won under, are renamed with it.
 */
export async function setPublicName(
  deps: UnitOfWorkDeps,
  userId: number,
  input: PublicNameInput,
  now = Date.now(),
): Promise<PublicNameView> {
  const nickname = input.mode === 'nickname' ? input.nickname : null;
  if (nickname !== null && isRefusedNickname(nickname)) throw badRequest(NICKNAME_REFUSED);
  try {
    return await inUnitOfWork(deps, async ({ trx }) => {
      const locked = await lockRows(trx, 'user', liveUser(trx, userId).first('id'));
      if (!locked) throw notFound('User not found');
      await trx('users')
        .where({ id: userId })
        .update({ publicNameMode: input.mode, nickname, updatedAt: now });
      const view = present(
        (await trx('users')
          .where({ id: userId })
          .first(...NAME_COLUMNS)) as NameRow,
      );
      await trx('instantWins').where({ userId }).whereNotNull('wonAt').update({ winnerName: view.shownAs });
      return view;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(NICKNAME_TAKEN);
    throw err;
  }
}
