-- Journals a call's terminal outcome exactly once (J1); a second completion answers the first record.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] call id  ARGV[4] outcome  ARGV[5] record (json)  ARGV[6] now
-- ARGV[7] event data (json: the outcome and the result's size; the call's hash holds the record)
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then
  return redis.error_reply('FENCED session owned by a newer epoch')
end
-- the record alone marks the call done, as in calls_completed.lua
if redis.call('HSETNX', KEYS[3], 'record', ARGV[5]) == 0 then
  return {'done', redis.call('HGET', KEYS[3], 'record')}
end
if ARGV[4] == 'outcome_unknown' then
  redis.call('HSET', KEYS[3], 'turn', ARGV[2])
end
redis.call('XADD', KEYS[2], '*', 'type', 'call.completed', 'turn', ARGV[2], 'call', ARGV[3], 'at', ARGV[6], 'data', ARGV[7])
return {'ok'}
