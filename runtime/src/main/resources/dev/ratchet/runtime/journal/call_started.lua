-- Journals that an attempt is about to send its request (J2). Refused when the call already has an outcome (J1).
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] call id  ARGV[4] attempt  ARGV[5] now  ARGV[6] event data (json)
local record = redis.call('HGET', KEYS[3], 'record')
if record then
  return {'done', record}
end
redis.call('HSET', KEYS[3], 'turn', ARGV[2], 'state', 'started', 'attempts', ARGV[4], 'startedAt', ARGV[5])
redis.call('XADD', KEYS[2], '*', 'type', 'call.started', 'turn', ARGV[2], 'call', ARGV[3], 'at', ARGV[5], 'data', ARGV[6])
return {'ok'}
