-- Takes ownership of a session: a new fencing epoch that makes every earlier owner's appends fail.
-- Answers, in the same step, the turns it holds in flight.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] inflight
-- ARGV[1] owner  ARGV[2] now  ARGV[3] key prefix of the session's turns (same hash tag)
-- answers {epoch, caller ('' when none), turn id, spec, submittedAt, entry, turn id, spec, submittedAt, entry, ...}
-- (entry: the id of the turn's turn.submitted entry in the session's stream; '' for a turn journaled without one)
-- an erased session is never started again (JournalKeys.erased)
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[1] .. ':erased') == 1 then
  return redis.error_reply('SESSION_ERASED an operator erased the session; start a new session')
end
local epoch = redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'claimedAt', ARGV[2])
redis.call('XADD', KEYS[2], '*', 'type', 'session.claimed', 'at', ARGV[2], 'data',
  cjson.encode({owner = ARGV[1], epoch = epoch}))
local out = {epoch, redis.call('HGET', KEYS[1], 'caller') or ''}
for _, turnId in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local t = redis.call('HMGET', ARGV[3] .. turnId, 'spec', 'submittedAt', 'entry')
  if t[1] then
    out[#out + 1] = turnId
    out[#out + 1] = t[1]
    out[#out + 1] = t[2] or '0'
    out[#out + 1] = t[3] or ''
  end
end
return out
