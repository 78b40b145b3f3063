import type { Knex } from 'knex';
import { engineOfKnex } from '../dialect';

// The Lucky Dip hot path's two stored procedures, on MariaDB only (api/tickets/hotPath/): a Lucky
// Dip hold and the release of a cart line, each one transaction in one round trip, COMMIT
// included, with the cart read back before it. They write exactly what the general path writes
// (api/tickets/reservations.ts, holdRows.ts) and decide nothing the general path would answer
// differently: anything but the plain case (a refusal, a queued launch, a merge, too few free
// candidates) rolls back and answers `fallback`, and the caller runs the general path, which
// gives the answer. An error rolls back before it reaches the caller (the EXIT handler).
// Every read is a plain SELECT ... INTO: a subquery in SET or IF is a locking read under
// REPEATABLE READ (shared next-key locks), and two holds' gap locks on cart_items deadlocked.
// Comparisons with a parameter name the tables' collation (tableDefaults): a procedure's string
// parameters take the database's default, which may differ.

const OWNER = (table: string) =>
  `((${table}.guest_id = p_guest_id COLLATE utf8mb4_unicode_ci AND ${table}.user_id IS NULL) OR ${table}.user_id = p_user_id)`;

/** The owner's live cart (cartQueries.ts cartReads): items, their competitions, the held numbers. */
const CART_READS = `
  SELECT id, guest_id AS guestId, user_id AS userId, competition_id AS competitionId, quantity,
    selected_numbers AS selectedNumbers, reserved_at AS reservedAt, expires_at AS expiresAt,
    kept_at AS keptAt, created_at AS createdAt, updated_at AS updatedAt
    FROM cart_items WHERE ${OWNER('cart_items')} AND cart_items.expires_at > p_now ORDER BY id;
  SELECT id, title, image, ticket_price_pence AS ticketPricePence, bundles, end_date AS endDate,
    total_tickets AS totalTickets
    FROM competitions WHERE id IN (
      SELECT competition_id FROM cart_items WHERE ${OWNER('cart_items')} AND cart_items.expires_at > p_now);
  SELECT cart_item_id AS cartItemId, number FROM tickets
    WHERE status = 'reserved' AND cart_item_id IN (
      SELECT id FROM cart_items WHERE ${OWNER('cart_items')} AND cart_items.expires_at > p_now)
    ORDER BY number;`;

/** A counter bump (db/counters.ts) into `target`: 1 for a new row, else the new value. */
const bump = (table: string, keyColumn: string, valueColumn: string, key: string, target: string) => `
  INSERT INTO ${table} (${keyColumn}, ${valueColumn}) VALUES (${key}, 1)
    ON DUPLICATE KEY UPDATE ${valueColumn} = LAST_INSERT_ID(${valueColumn} + 1);
  SET ${target} = IF(ROW_COUNT() = 1, 1, LAST_INSERT_ID());`;

const HOLD = `
CREATE PROCEDURE hold_lucky_dip(
  IN p_competition_id INT, IN p_guest_id VARCHAR(64) CHARACTER SET utf8mb4, IN p_user_id INT,
  IN p_cart_key VARCHAR(80) CHARACTER SET utf8mb4, IN p_quantity INT, IN p_candidates TEXT, IN p_total INT,
  IN p_cap_setting VARCHAR(100) CHARACTER SET utf8mb4, IN p_default_cap INT, IN p_now BIGINT, IN p_ttl_ms BIGINT)
MODIFIES SQL DATA
hold: BEGIN
  DECLARE v_open, v_merge, v_total, v_sold, v_cap, v_has, v_found INT;
  DECLARE v_break, v_item, v_version, v_revision BIGINT;
  DECLARE v_i, v_n INT;
  DECLARE v_setting, v_numbers, v_list TEXT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  -- The person's cap lock first (holdChecks.ts capLock): the plain reads after it see every hold
  -- of theirs committed before, and their other holds on this competition wait.
  IF p_user_id IS NULL THEN
    INSERT INTO cap_locks (competition_id, owner_key) VALUES (p_competition_id, CONCAT('g:', p_guest_id))
      ON DUPLICATE KEY UPDATE owner_key = owner_key;
  ELSE
    INSERT INTO cap_locks (competition_id, owner_key)
      VALUES (p_competition_id, CONCAT('g:', p_guest_id)), (p_competition_id, CONCAT('u:', p_user_id))
      ON DUPLICATE KEY UPDATE owner_key = owner_key;
  END IF;
  -- Open (assertOpen), no queue to pass (queue/gate.ts), the size the candidates were drawn from,
  -- and mostly free (numberPicker.ts pickFree).
  SELECT status = 'active' AND end_date > p_now AND drawn_at IS NULL AND draw_beacon_round IS NULL
      AND (starts_at IS NULL OR starts_at <= p_now) AND NOT (launch_queue AND queue_drained_at IS NULL),
      total_tickets, tickets_sold, max_tickets_per_user
    INTO v_open, v_total, v_sold, v_cap
    FROM competitions WHERE id = p_competition_id;
  IF v_open IS NULL OR NOT v_open OR v_total <> p_total OR v_sold >= v_total / 2 THEN
    ROLLBACK; SELECT 'fallback' AS status, v_total AS totalTickets; LEAVE hold;
  END IF;
  -- Not on a break (breakRead: the account's own, or its mailbox's on the exclusion register).
  IF p_user_id IS NOT NULL THEN
    SELECT GREATEST(COALESCE(u.self_excluded_until, 0), COALESCE(
        (SELECT MAX(r.ends_at) FROM exclusion_register r WHERE r.key_hash = u.mailbox_key), 0))
      INTO v_break FROM users u WHERE u.id = p_user_id;
    IF COALESCE(v_break, 0) > p_now THEN
      ROLLBACK; SELECT 'fallback' AS status, v_total AS totalTickets; LEAVE hold;
    END IF;
  END IF;
  -- A live Lucky Dip of theirs here: the general path merges into it.
  SELECT EXISTS (SELECT 1 FROM cart_items WHERE competition_id = p_competition_id AND ${OWNER('cart_items')}
      AND expires_at > p_now AND selected_numbers = '[]') INTO v_merge;
  IF v_merge THEN
    ROLLBACK; SELECT 'fallback' AS status, v_total AS totalTickets; LEAVE hold;
  END IF;
  -- The cap: the competition's own, else the site's (decoded here only when plainly a number).
  IF v_cap IS NULL THEN
    SELECT value INTO v_setting FROM site_settings WHERE \`key\` = p_cap_setting COLLATE utf8mb4_unicode_ci;
    IF v_setting IS NULL THEN SET v_cap = p_default_cap;
    ELSEIF v_setting REGEXP '^[1-9][0-9]{0,8}$' THEN SET v_cap = CAST(v_setting AS UNSIGNED);
    END IF;
  END IF;
  SELECT COUNT(*) INTO v_has FROM tickets
    WHERE competition_id = p_competition_id AND (status = 'sold' OR expires_at > p_now) AND ${OWNER('tickets')};
  IF v_cap IS NULL OR v_has + p_quantity > v_cap THEN
    ROLLBACK; SELECT 'fallback' AS status, v_total AS totalTickets; LEAVE hold;
  END IF;
  -- The first p_quantity free candidates, in the candidates' random order; held in number order.
  SELECT GROUP_CONCAT(c.n ORDER BY c.n), COUNT(*) INTO v_numbers, v_found FROM (
      SELECT j.n FROM JSON_TABLE(p_candidates, '$[*]' COLUMNS (ord FOR ORDINALITY, n INT PATH '$')) AS j
        WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.competition_id = p_competition_id
          AND t.number = j.n AND (t.status = 'sold' OR t.expires_at > p_now))
        ORDER BY j.ord LIMIT p_quantity) AS c;
  IF v_found < p_quantity THEN
    ROLLBACK; SELECT 'fallback' AS status, v_total AS totalTickets; LEAVE hold;
  END IF;
  INSERT INTO cart_items (guest_id, user_id, competition_id, quantity, selected_numbers, reserved_at,
      expires_at, created_at, updated_at)
    VALUES (p_guest_id, p_user_id, p_competition_id, p_quantity, '[]', p_now, p_now + p_ttl_ms, p_now, p_now);
  SET v_item = LAST_INSERT_ID();
  -- One row at a time, in number order: an INSERT ... SELECT would hold the table's AUTO-INC lock
  -- for the statement, and while it waits on a number another hold is inserting, every hold stalls.
  -- An expired hold's row on a picked number is a duplicate key here: the general path clears it.
  SET v_list = CONCAT('[', v_numbers, ']'), v_i = 0;
  WHILE v_i < v_found DO
    SET v_n = JSON_VALUE(v_list, CONCAT('$[', v_i, ']')), v_i = v_i + 1;
    INSERT INTO tickets (competition_id, number, status, cart_item_id, guest_id, user_id, is_claimed,
        expires_at, created_at, updated_at)
      VALUES (p_competition_id, v_n, 'reserved', v_item, p_guest_id, p_user_id, 0, p_now + p_ttl_ms, p_now, p_now);
    INSERT INTO ticket_events (competition_id, number, event, order_id, user_id, note, created_at)
      VALUES (p_competition_id, v_n, 'held', NULL, p_user_id, NULL, p_now);
  END WHILE;
  ${CART_READS}
  -- Last, as everywhere: the version row, then the cart revision, locked only until COMMIT.
  ${bump('competition_versions', 'competition_id', 'version', 'p_competition_id', 'v_version')}
  ${bump('cart_revisions', 'owner_key', 'revision', 'p_cart_key', 'v_revision')}
  COMMIT;
  SELECT 'held' AS status, v_item AS itemId, v_numbers AS numbers, v_version AS version,
    v_revision AS revision, v_total AS totalTickets;
END hold`;

const RELEASE = `
CREATE PROCEDURE release_cart_item(
  IN p_item_id BIGINT, IN p_guest_id VARCHAR(64) CHARACTER SET utf8mb4, IN p_user_id INT, IN p_cart_key VARCHAR(80) CHARACTER SET utf8mb4,
  IN p_note VARCHAR(100) CHARACTER SET utf8mb4, IN p_now BIGINT)
MODIFIES SQL DATA
release_item: BEGIN
  DECLARE v_competition_id, v_i INT;
  DECLARE v_version, v_revision BIGINT;
  DECLARE v_numbers, v_list TEXT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  -- As removeItem: the owner's item (found or 404 on the general path), its held numbers in row
  -- order (deleteItems), the item deleted with its holds (ON DELETE CASCADE).
  SELECT competition_id INTO v_competition_id FROM cart_items WHERE id = p_item_id AND ${OWNER('cart_items')};
  IF v_competition_id IS NULL THEN
    ROLLBACK; SELECT 'fallback' AS status; LEAVE release_item;
  END IF;
  SELECT GROUP_CONCAT(number ORDER BY id) INTO v_numbers FROM tickets
    WHERE cart_item_id = p_item_id AND status = 'reserved';
  DELETE FROM cart_items WHERE id = p_item_id;
  IF ROW_COUNT() = 0 THEN
    ROLLBACK; SELECT 'fallback' AS status; LEAVE release_item;
  END IF;
  -- Their history, one row at a time (no AUTO-INC table lock: see hold_lucky_dip).
  SET v_list = CONCAT('[', COALESCE(v_numbers, ''), ']'), v_i = 0;
  WHILE v_i < JSON_LENGTH(v_list) DO
    INSERT INTO ticket_events (competition_id, number, event, order_id, user_id, note, created_at)
      VALUES (v_competition_id, JSON_VALUE(v_list, CONCAT('$[', v_i, ']')), 'released', NULL, NULL, p_note, p_now);
    SET v_i = v_i + 1;
  END WHILE;
  ${CART_READS}
  IF v_numbers IS NOT NULL THEN
    ${bump('competition_versions', 'competition_id', 'version', 'v_competition_id', 'v_version')}
  END IF;
  ${bump('cart_revisions', 'owner_key', 'revision', 'p_cart_key', 'v_revision')}
  COMMIT;
  SELECT 'released' AS status, v_competition_id AS competitionId, v_numbers AS numbers,
    v_version AS version, v_revision AS revision;
END release_item`;

export async function up(knex: Knex): Promise<void> {
  if (engineOfKnex(knex) !== 'mysql') return;
  await knex.raw(HOLD);
  await knex.raw(RELEASE);
}

export async function down(knex: Knex): Promise<void> {
  if (engineOfKnex(knex) !== 'mysql') return;
  await knex.raw('DROP PROCEDURE IF EXISTS hold_lucky_dip');
  await knex.raw('DROP PROCEDURE IF EXISTS release_cart_item');
}
