// knex's own factory of a knex instance from a client (CommonJS, no typings), used by
// fastpaths/pinnedConnection.ts the way knex uses it for transactions.
declare module 'knex/lib/knex-builder/make-knex.js' {
  import type { Knex } from 'knex';

  const makeKnex: (client: Knex.Client) => Knex;
  export default makeKnex;
}
