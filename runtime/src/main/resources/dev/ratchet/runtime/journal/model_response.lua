-- Records a model response once per (session, loop step), before any of its tool calls run. A second
-- record for the same step is refused and answers the first, so a recorded response is never replaced.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] loop  KEYS[4] conversation
-- ARGV[1] epoch  ARGV[2] step  ARGV[3] entry (json)  ARGV[4] now  ARGV[5] event data (json)  ARGV[6] turn id
local known = redis.call('HGET', KEYS[3], 'model:' .. ARGV[2])
if known then
  return {'exists', known, redis.call('LINDEX', KEYS[4], tonumber(known))}
end
local last = tonumber(redis.call('HGET', KEYS[3], 'step') or '0')
if tonumber(ARGV[2]) ~= last + 1 then
  return {'out_of_order', tostring(last)}
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[4])
local index = redis.call('RPUSH', KEYS[4], ARGV[3]) - 1
redis.call('HSET', KEYS[3], 'model:' .. ARGV[2], index, 'step', ARGV[2])
redis.call('XADD', KEYS[2], '*', 'type', 'model.response', 'turn', ARGV[6], 'call', '', 'at', ARGV[4], 'data', ARGV[5])
return {'ok', tostring(index)}
