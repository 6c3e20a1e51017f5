-- Journals a turn's results before they are delivered (J7); the turn leaves the in-flight set. A
-- completed turn is kept as a group commit keeps it (calls_completed.lua): while its results are its
-- calls' records, the turn's hash does not copy them and readers put them together from the calls'
-- hashes. Only when a record differs from the one delivered (a reconciliation came first) does the
-- turn keep its results whole, as call_reconciled.lua keeps them.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] turn  KEYS[4] inflight, then the call key of each call of the
-- turn in the model's order (none: the results are kept whole)
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] the results up to their first record  ARGV[4] now
-- ARGV[5] the turn.completed event data (json: the turn and each call's outcome; the calls' hashes
-- hold the records), then each call's record (json) in the model's order
local status = redis.call('HMGET', KEYS[3], 'status', 'results')
if status[1] == 'completed' then
  return {'done', status[2]}
end
local same = #KEYS > 4
for k = 5, #KEYS do
  if redis.call('HGET', KEYS[k], 'record') ~= ARGV[k + 1] then
    same = false
    break
  end
end
if same then
  redis.call('HSET', KEYS[3], 'status', 'completed', 'completedAt', ARGV[4])
else
  local records = {}
  for k = 6, #ARGV do
    records[#records + 1] = ARGV[k]
  end
  redis.call('HSET', KEYS[3], 'status', 'completed', 'results', ARGV[3] .. table.concat(records, ',') .. ']}',
    'completedAt', ARGV[4])
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[4])
redis.call('SREM', KEYS[4], ARGV[2])
redis.call('XADD', KEYS[2], '*', 'type', 'turn.completed', 'turn', ARGV[2], 'at', ARGV[4], 'data', ARGV[5])
return {'ok'}
