-- Records a person's finding for an outcome_unknown call after checking the provider. The caller
-- builds the updated record; this script only lets it replace a record that is still unknown.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call
-- ARGV[1] call id  ARGV[2] outcome (succeeded|failed)  ARGV[3] updated record (json)  ARGV[4] now
-- ARGV[5] event data (json)
local fields = redis.call('HMGET', KEYS[3], 'record', 'turn')
if not fields[1] then
  return {'unknown_call'}
end
-- a completed call's hash holds its record alone; the outcome is read from the record
local outcome = cjson.decode(fields[1]).outcome
if outcome ~= 'outcome_unknown' then
  return {'not_unknown', outcome}
end
redis.call('HSET', KEYS[3], 'record', ARGV[3], 'reconciledAt', ARGV[4])
-- calls completed by earlier releases also carry their outcome as a field of its own
if redis.call('HEXISTS', KEYS[3], 'outcome') == 1 then
  redis.call('HSET', KEYS[3], 'outcome', ARGV[2])
end
redis.call('XADD', KEYS[2], '*', 'type', 'call.reconciled', 'turn', fields[2] or '', 'call', ARGV[1], 'at', ARGV[4],
  'data', ARGV[5])
return {'ok'}
