/**
 * The API's rate-limit windows, shared by every process (PostgreSQL only: one process keeps
 * them in memory). One row per key: a ring of its accepted requests' times, at most the limit
 * of them, as RateLimiter keeps in memory. `rate_take` changes it under the row's lock in one
 * call, so a request costs one round trip and two processes cannot both take a key's last
 * request; times leave from the ring's head as they fall out of the window, so a call costs the
 * same however many requests the window holds (plpgsql updates an array element in place).
 */
export const rateWindowsSql = `
CREATE TABLE rate_windows (
  key TEXT COLLATE "C" PRIMARY KEY,
  times BIGINT[] NOT NULL,
  head INTEGER NOT NULL,
  used INTEGER NOT NULL,
  touched_at BIGINT NOT NULL
);
-- The ring is rewritten on every request: kept out of line but never compressed.
ALTER TABLE rate_windows ALTER COLUMN times SET STORAGE EXTERNAL;
CREATE INDEX rate_windows_touched ON rate_windows (touched_at);
CREATE FUNCTION rate_take(p_key TEXT, p_now BIGINT, p_window BIGINT, p_limit INTEGER)
RETURNS TABLE (allowed BOOLEAN, used INTEGER, oldest BIGINT, newest BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  r rate_windows%ROWTYPE;
BEGIN
  INSERT INTO rate_windows (key, times, head, used, touched_at)
    VALUES (p_key, '{}', 1, 0, p_now) ON CONFLICT (key) DO NOTHING;
  SELECT * INTO r FROM rate_windows w WHERE w.key = p_key FOR UPDATE;
  -- A ring made under another limit starts again whole.
  IF coalesce(array_length(r.times, 1), 0) > p_limit THEN
    r.times := '{}';
    r.head := 1;
    r.used := 0;
  END IF;
  WHILE r.used > 0 AND r.times[r.head] <= p_now - p_window LOOP
    r.head := r.head % p_limit + 1;
    r.used := r.used - 1;
  END LOOP;
  allowed := r.used < p_limit;
  IF allowed THEN
    r.times[(r.head + r.used - 1) % p_limit + 1] := p_now;
    r.used := r.used + 1;
  END IF;
  UPDATE rate_windows w SET times = r.times, head = r.head, used = r.used, touched_at = p_now
    WHERE w.key = p_key;
  used := r.used;
  oldest := r.times[r.head];
  newest := r.times[(r.head + r.used - 2) % p_limit + 1];
  RETURN NEXT;
END
$$;
`;
