-- Records a person's finding for an outcome_unknown call after checking the provider. The caller
-- builds the updated record; this script only lets it replace a record that is still unknown.
-- A completed turn keeps no copy of its calls' records; before one of them changes,
-- the turn's results as first journaled (J7) are copied into the turn, so that the turn answers a
-- resubmission as it answered first.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call  KEYS[4] the call's turn (optional), then the call key
-- of every call of that turn in the model's order
-- ARGV[1] call id  ARGV[2] outcome (succeeded|failed)  ARGV[3] updated record (json)  ARGV[4] now
-- ARGV[5] event data (json)  ARGV[6] the turn's results up to their first record, when KEYS[4] is given
local fields = redis.call('HMGET', KEYS[3], 'record', 'turn')
if not fields[1] then
  return {'unknown_call'}
end
-- a completed call's hash holds its record alone; the outcome is read from the record
local outcome = cjson.decode(fields[1]).outcome
if outcome ~= 'outcome_unknown' then
  return {'not_unknown', outcome}
end
if KEYS[4] and redis.call('HGET', KEYS[4], 'status') == 'completed' and redis.call('HEXISTS', KEYS[4], 'results') == 0 then
  local records = {}
  for k = 5, #KEYS do
    local record = redis.call('HGET', KEYS[k], 'record')
    if not record then
      return redis.error_reply('JOURNAL_INCOMPLETE a call of the completed turn has no record: ' .. KEYS[k])
    end
    records[#records + 1] = record
  end
  redis.call('HSET', KEYS[4], 'results', ARGV[6] .. table.concat(records, ',') .. ']}')
end
-- the record as first journaled stays, for the call.completed event that refers to it
redis.call('HSETNX', KEYS[3], 'completedRecord', fields[1])
redis.call('HSET', KEYS[3], 'record', ARGV[3], 'reconciledAt', ARGV[4])
redis.call('XADD', KEYS[2], '*', 'type', 'call.reconciled', 'turn', fields[2] or '', 'call', ARGV[1], 'at', ARGV[4],
  'data', ARGV[5])
return {'ok'}
