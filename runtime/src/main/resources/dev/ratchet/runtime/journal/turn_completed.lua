-- Journals a turn's results before they are delivered (J7); the turn leaves the in-flight set.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] turn  KEYS[4] inflight
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] results (json)  ARGV[4] now
-- ARGV[5] the turn.completed event data (json: the turn and each call's outcome; the turn's hash
-- and each call's hash hold the records)
local status = redis.call('HMGET', KEYS[3], 'status', 'results')
if status[1] == 'completed' then
  return {'done', status[2]}
end
redis.call('HSET', KEYS[3], 'status', 'completed', 'results', ARGV[3], 'completedAt', ARGV[4])
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[4])
redis.call('SREM', KEYS[4], ARGV[2])
redis.call('XADD', KEYS[2], '*', 'type', 'turn.completed', 'turn', ARGV[2], 'at', ARGV[4], 'data', ARGV[5])
return {'ok'}
