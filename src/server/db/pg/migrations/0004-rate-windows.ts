/**
 * The API's rate-limit windows, shared by every process (PostgreSQL only: one process keeps
 * them in memory). One row per key with its accepted requests' times, at most the limit of
 * them, changed under the row's lock by one function call, so a request costs one round trip
 * and two processes cannot both take a key's last request.
 */
export const rateWindowsSql = `
CREATE TABLE rate_windows (
  key TEXT COLLATE "C" PRIMARY KEY,
  times BIGINT[] NOT NULL,
  touched_at BIGINT NOT NULL
);
CREATE INDEX rate_windows_touched ON rate_windows (touched_at);
CREATE FUNCTION rate_take(p_key TEXT, p_now BIGINT, p_window BIGINT, p_limit INTEGER)
RETURNS TABLE (allowed BOOLEAN, used INTEGER, oldest BIGINT, newest BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  kept BIGINT[];
BEGIN
  INSERT INTO rate_windows (key, times, touched_at) VALUES (p_key, '{}', p_now)
    ON CONFLICT (key) DO NOTHING;
  SELECT ARRAY(SELECT t FROM unnest(r.times) AS t WHERE t > p_now - p_window ORDER BY t)
    INTO kept FROM rate_windows r WHERE r.key = p_key FOR UPDATE;
  allowed := cardinality(kept) < p_limit;
  IF allowed THEN
    kept := kept || p_now;
  END IF;
  UPDATE rate_windows SET times = kept, touched_at = p_now WHERE key = p_key;
  used := cardinality(kept);
  oldest := kept[1];
  newest := kept[cardinality(kept)];
  RETURN NEXT;
END
$$;
`;
