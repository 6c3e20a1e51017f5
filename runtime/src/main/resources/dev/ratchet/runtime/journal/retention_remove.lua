-- One retention step of a session (J9): removes completed turns whose every call has a final outcome
-- (no outcome_unknown left unreconciled, no approval pending), each leaving a tombstone that answers
-- a resubmission; drops expired tombstones, remembering their turn ids in a Bloom filter so that a
-- resubmission past the window is refused rather than run again; and archives an idle session,
-- removing its events. The meta (owner, epoch, caller) always stays. Each turn is checked here, in
-- the same step as its removal, whatever the sweeper read before.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] inflight  KEYS[4] tombstones  KEYS[5] expired turn ids (digests)
-- then per turn: its turn key, then the key of each of its calls
-- ARGV[1] epoch  ARGV[2] now  ARGV[3] the new tombstones' expiry (each carries it too)  ARGV[4] '1' to archive the whole session  ARGV[5] the
-- updatedAt the sweeper saw (the session is archived only when it is unchanged)
-- then per turn: turn id, number of calls, tombstone (json), its event ids (space separated)
-- Answers {expired tombstones, archived (0/1), removed turn id, ...}
local now = tonumber(ARGV[2])
-- nine bytes a turn: a space, then eight hex digits of the id's SHA-1 (submit_turn.lua looks for them)
local function remember(turnId)
  redis.call('APPEND', KEYS[5], ' ' .. string.sub(redis.sha1hex(turnId), 1, 8))
end
local expired = 0
local stones = redis.call('HGETALL', KEYS[4])
for i = 1, #stones, 2 do
  local ok, t = pcall(cjson.decode, stones[i + 1])
  if (not ok) or (tonumber(t.expiresAt) or 0) <= now then
    redis.call('HDEL', KEYS[4], stones[i])
    remember(stones[i])
    expired = expired + 1
  end
end
local out = {expired, 0}
local skipped = false
local k = 6
local a = 6
while a <= #ARGV do
  local turnId = ARGV[a]
  local n = tonumber(ARGV[a + 1])
  local removable = redis.call('HGET', KEYS[k], 'status') == 'completed' and redis.call('SISMEMBER', KEYS[3], turnId) == 0
  if removable then
    for c = 1, n do
      local f = redis.call('HMGET', KEYS[k + c], 'record', 'approvalStatus')
      if (not f[1]) or f[2] == 'pending' or cjson.decode(f[1]).outcome == 'outcome_unknown' then
        removable = false
        break
      end
    end
  end
  if removable then
    for c = 0, n do
      redis.call('DEL', KEYS[k + c])
    end
    redis.call('HSET', KEYS[4], turnId, ARGV[a + 2])
    for id in string.gmatch(ARGV[a + 3], '%S+') do
      redis.call('XDEL', KEYS[2], id)
    end
    out[#out + 1] = turnId
  else
    skipped = true
  end
  k = k + 1 + n
  a = a + 4
end
if ARGV[4] == '1' and not skipped and redis.call('SCARD', KEYS[3]) == 0
    and redis.call('HGET', KEYS[1], 'updatedAt') == ARGV[5] then
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'archivedAt', ARGV[2])
  out[2] = 1
end
return out
