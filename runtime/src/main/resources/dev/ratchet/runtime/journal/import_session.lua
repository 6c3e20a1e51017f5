-- Writes an exported session's completed turns into the journal, refusing a session it knows.
-- KEYS[1] meta  KEYS[2] events  then per turn: its turn key, then the key of each of its calls
-- ARGV[1] agent  ARGV[2] caller ('' for none)  ARGV[3] createdAt  ARGV[4] now
-- then per turn: turn id, spec (json), spec hash, submittedAt, completedAt, results (json),
-- number of calls, then each call's record (json)
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.error_reply('SESSION_EXISTS the journal already holds this session; import never overwrites one')
end
-- an import brings an erased session back: its erasure's mark goes
redis.call('DEL', KEYS[1] .. ':erased')
redis.call('HSET', KEYS[1], 'agent', ARGV[1], 'createdAt', ARGV[3], 'updatedAt', ARGV[4], 'epoch', 0)
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'caller', ARGV[2])
end
local k = 3
local a = 5
local turns = 0
while a <= #ARGV do
  local n = tonumber(ARGV[a + 6])
  redis.call('HSET', KEYS[k], 'spec', ARGV[a + 1], 'specHash', ARGV[a + 2], 'status', 'completed',
    'submittedAt', ARGV[a + 3], 'completedAt', ARGV[a + 4], 'results', ARGV[a + 5])
  for c = 1, n do
    redis.call('HSET', KEYS[k + c], 'turn', ARGV[a], 'state', 'done', 'record', ARGV[a + 6 + c])
  end
  redis.call('XADD', KEYS[2], '*', 'type', 'turn.imported', 'turn', ARGV[a], 'at', ARGV[4], 'data', '{}')
  turns = turns + 1
  k = k + 1 + n
  a = a + 7 + n
end
return turns
