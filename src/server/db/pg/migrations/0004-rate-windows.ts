/**
 * The API's rate-limit windows, shared by every process (PostgreSQL only: one process keeps
 * them in memory). As RateLimiter keeps in memory, each key has a ring of its accepted requests'
 * times, at most the limit of them: `rate_windows` holds its head and count, `rate_hits` one row
 * per slot. `rate_take` changes them under the key's row lock in one call, so a request costs one
 * round trip and two processes cannot both take a key's last request; times leave from the head
 * as they fall out of the window, each once, so a call touches a few small rows however full the
 * window is.
 */
export const rateWindowsSql = `
CREATE TABLE rate_windows (
  key TEXT COLLATE "C" PRIMARY KEY,
  ring_limit INTEGER NOT NULL,
  head INTEGER NOT NULL,
  used INTEGER NOT NULL,
  touched_at BIGINT NOT NULL
);
CREATE INDEX rate_windows_touched ON rate_windows (touched_at);
CREATE TABLE rate_hits (
  key TEXT COLLATE "C" NOT NULL REFERENCES rate_windows (key) ON DELETE CASCADE,
  slot INTEGER NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (key, slot)
);
CREATE FUNCTION rate_take(p_key TEXT, p_now BIGINT, p_window BIGINT, p_limit INTEGER)
RETURNS TABLE (allowed BOOLEAN, used INTEGER, oldest BIGINT, newest BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  r rate_windows%ROWTYPE;
  t BIGINT;
BEGIN
  INSERT INTO rate_windows (key, ring_limit, head, used, touched_at)
    VALUES (p_key, p_limit, 0, 0, p_now) ON CONFLICT (key) DO NOTHING;
  SELECT * INTO r FROM rate_windows w WHERE w.key = p_key FOR UPDATE;
  -- A ring made under another limit starts again whole.
  IF r.ring_limit <> p_limit THEN
    DELETE FROM rate_hits h WHERE h.key = p_key;
    r.ring_limit := p_limit;
    r.head := 0;
    r.used := 0;
  END IF;
  LOOP
    EXIT WHEN r.used = 0;
    SELECT h.at INTO t FROM rate_hits h WHERE h.key = p_key AND h.slot = r.head;
    EXIT WHEN t > p_now - p_window;
    r.head := (r.head + 1) % p_limit;
    r.used := r.used - 1;
  END LOOP;
  allowed := r.used < p_limit;
  IF allowed THEN
    INSERT INTO rate_hits (key, slot, at) VALUES (p_key, (r.head + r.used) % p_limit, p_now)
      ON CONFLICT (key, slot) DO UPDATE SET at = EXCLUDED.at;
    r.used := r.used + 1;
    newest := p_now;
  ELSE
    SELECT h.at INTO newest FROM rate_hits h
      WHERE h.key = p_key AND h.slot = (r.head + r.used - 1) % p_limit;
  END IF;
  UPDATE rate_windows w SET ring_limit = r.ring_limit, head = r.head, used = r.used,
    touched_at = p_now WHERE w.key = p_key;
  used := r.used;
  SELECT h.at INTO oldest FROM rate_hits h WHERE h.key = p_key AND h.slot = r.head;
  RETURN NEXT;
END
$$;
`;
