-- Ends a round of the agent loop once: the final answer (message.assistant), or the model's failure
-- (model.failed). The end id names the round end, so a repeated append answers the first.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] loop  KEYS[4] conversation
-- ARGV[1] epoch  ARGV[2] end id  ARGV[3] entry (json)  ARGV[4] now  ARGV[5] event type  ARGV[6] event data (json)
local known = redis.call('HGET', KEYS[3], 'end:' .. ARGV[2])
if known then
  return {'exists', known}
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[4])
local index = redis.call('RPUSH', KEYS[4], ARGV[3]) - 1
redis.call('HSET', KEYS[3], 'end:' .. ARGV[2], index)
redis.call('XADD', KEYS[2], '*', 'type', ARGV[5], 'turn', '', 'call', '', 'at', ARGV[4], 'data', ARGV[6])
return {'ok', tostring(index)}
