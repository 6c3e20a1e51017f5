-- Journals that a write waits for a person's decision (J5). Asking twice keeps the first request.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] call
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] call id  ARGV[4] request (json)  ARGV[5] arguments hash
-- ARGV[6] expires at (0 = never)  ARGV[7] now
local record = redis.call('HGET', KEYS[3], 'record')
if record then
  return {'done', record}
end
local status = redis.call('HGET', KEYS[3], 'approvalStatus')
if status then
  return {'exists', status}
end
redis.call('HSET', KEYS[3], 'turn', ARGV[2], 'state', 'awaiting_approval', 'approvalStatus', 'pending', 'approvalRequest', ARGV[4],
  'argumentsHash', ARGV[5], 'expiresAt', ARGV[6], 'requestedAt', ARGV[7])
redis.call('XADD', KEYS[2], '*', 'type', 'approval.requested', 'turn', ARGV[2], 'call', ARGV[3], 'at', ARGV[7], 'data', ARGV[4])
return {'ok'}
