-- Journals a person's decision (J5, rule 8). Not fenced: any node may take a decision, but only for
-- a pending request, for the arguments it showed, before it expires.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call
-- ARGV[1] call id  ARGV[2] arguments hash  ARGV[3] status (approved|rejected|expired)  ARGV[4] approver
-- ARGV[5] reason  ARGV[6] now  ARGV[7] the arguments the approver edited (JSON, validated), '' when not edited
local fields = redis.call('HMGET', KEYS[3], 'approvalStatus', 'argumentsHash', 'expiresAt', 'turn')
if not fields[1] then
  return {'unknown_call'}
end
if fields[1] ~= 'pending' then
  return {'already_decided', fields[1]}
end
if ARGV[3] ~= 'expired' then
  if fields[2] ~= ARGV[2] then
    return {'stale'}
  end
  local expiresAt = tonumber(fields[3] or '0')
  if expiresAt > 0 and tonumber(ARGV[6]) >= expiresAt then
    -- fail closed: the request is journaled expired, so the inbox (which drops it) and the call agree
    redis.call('HSET', KEYS[3], 'approvalStatus', 'expired', 'approver', 'ratchet', 'approvalReason',
      'approval expired', 'decidedAt', ARGV[6])
    redis.call('XADD', KEYS[2], '*', 'type', 'approval.decided', 'turn', fields[4] or '', 'call', ARGV[1],
      'at', ARGV[6], 'data', cjson.encode({status = 'expired', approver = 'ratchet', reason = 'approval expired'}))
    return {'expired'}
  end
end
redis.call('HSET', KEYS[3], 'approvalStatus', ARGV[3], 'approver', ARGV[4], 'approvalReason', ARGV[5],
  'decidedAt', ARGV[6])
local data = cjson.encode({status = ARGV[3], approver = ARGV[4], reason = ARGV[5]})
if ARGV[7] ~= '' and ARGV[3] == 'approved' then
  -- the edited arguments go in as the JSON text they came as: cjson would turn {} into [] and round numbers
  redis.call('HSET', KEYS[3], 'editedArguments', ARGV[7])
  data = string.sub(data, 1, -2) .. ',"editedArguments":' .. ARGV[7] .. ',"originalArgumentsHash":'
    .. cjson.encode(ARGV[2]) .. ',"editedBy":' .. cjson.encode(ARGV[4]) .. '}'
end
redis.call('XADD', KEYS[2], '*', 'type', 'approval.decided', 'turn', fields[4] or '', 'call', ARGV[1], 'at', ARGV[6],
  'data', data)
return {'ok'}
