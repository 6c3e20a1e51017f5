-- Forgets an archived session (retention.forgetArchivedAfterMillis): removes every key it has left,
-- its meta too, once it has been archived long enough, has had no activity since the sweeper read it,
-- holds nothing in flight and has no tombstone left (each answers a resubmission within its window).
-- The caller has added the id to the forgotten-session filter first, so a later claim is refused.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] inflight  KEYS[4] tombstones  KEYS[5] expired turn ids
-- KEYS[6] conversation  KEYS[7] loop
-- ARGV[1] epoch  ARGV[2] the updatedAt the sweeper saw  ARGV[3] the latest archivedAt that may be forgotten
-- Answers 1 when the session was forgotten, 0 when it stays
local m = redis.call('HMGET', KEYS[1], 'updatedAt', 'archivedAt')
if m[1] ~= ARGV[2] or not m[2] then
  return 0
end
local archivedAt = tonumber(m[2])
if archivedAt < tonumber(m[1]) or archivedAt > tonumber(ARGV[3]) then
  return 0
end
if redis.call('EXISTS', KEYS[4]) == 1 or redis.call('SCARD', KEYS[3]) > 0 then
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5], KEYS[6], KEYS[7])
return 1
