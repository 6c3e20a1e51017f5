-- Appends a user message to the session's conversation once per message id (agent loop).
-- KEYS[1] meta  KEYS[2] events  KEYS[3] loop  KEYS[4] conversation
-- ARGV[1] epoch  ARGV[2] message id  ARGV[3] entry (json)  ARGV[4] agent  ARGV[5] now  ARGV[6] event data (json)
-- ARGV[7] caller ('' for none: a new session gets no caller, an existing one keeps its own)
-- ARGV[8] creator: the name of the user or token that sends ('' for none); kept only by a new session
local owner = redis.call('HMGET', KEYS[1], 'agent', 'caller')
if owner[1] and ARGV[7] ~= '' and owner[2] ~= ARGV[7] then
  if owner[2] then
    return redis.error_reply('CALLER_MISMATCH session belongs to another caller')
  end
  return redis.error_reply('CALLER_MISMATCH session was created without a caller; its caller cannot be set later')
end
local known = redis.call('HGET', KEYS[3], 'msg:' .. ARGV[2])
if known then
  return {'exists', known}
end
local agent = redis.call('HGET', KEYS[1], 'agent')
if agent and agent ~= ARGV[4] then
  return redis.error_reply('AGENT_MISMATCH session belongs to agent ' .. agent)
end
if not agent then
  redis.call('HSET', KEYS[1], 'agent', ARGV[4], 'createdAt', ARGV[5])
  if ARGV[7] ~= '' then
    redis.call('HSET', KEYS[1], 'caller', ARGV[7])
  end
  if ARGV[8] and ARGV[8] ~= '' then
    redis.call('HSET', KEYS[1], 'creator', ARGV[8])
  end
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[5])
local index = redis.call('RPUSH', KEYS[4], ARGV[3]) - 1
redis.call('HSET', KEYS[3], 'msg:' .. ARGV[2], index)
redis.call('XADD', KEYS[2], '*', 'type', 'message.user', 'turn', '', 'call', '', 'at', ARGV[5], 'data', ARGV[6])
return {'ok', tostring(index)}
