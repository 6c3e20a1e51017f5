-- Journals a new turn once; a second submission of the same turn id answers what the first has.
-- A new turn may also journal its first write as started (J2) in the same step, when that write
-- can be sent at once: one round trip less before the request leaves.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] turn  KEYS[4] inflight  KEYS[5] tombstones  KEYS[6] expired turn ids
-- KEYS[7] the first write's call (optional)
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] turn spec (json)  ARGV[4] spec hash  ARGV[5] agent  ARGV[6] now
-- ARGV[7] caller ('' for none: a new session gets no caller, an existing one keeps its own)
-- ARGV[8] creator: the name of the user or token that submits ('' for none); kept only by a new session
-- ARGV[9] the first write's event field ('call.started <call id>')  ARGV[10] its attempt  ARGV[11] its started event data (json), when KEYS[7] is given
-- before the turn lookup, so another caller cannot even read a turn's results by submitting it again
local known = redis.call('HMGET', KEYS[1], 'agent', 'caller')
if known[1] and ARGV[7] ~= '' and known[2] ~= ARGV[7] then
  if known[2] then
    return redis.error_reply('CALLER_MISMATCH session belongs to another caller')
  end
  return redis.error_reply('CALLER_MISMATCH session was created without a caller; its caller cannot be set later')
end
local existing = redis.call('HMGET', KEYS[3], 'status', 'specHash', 'results')
if existing[1] then
  if existing[2] ~= ARGV[4] then
    return {'conflict'}
  end
  return {existing[1], existing[3] or ''}
end
-- a turn removed by retention answers from its tombstone; past the tombstone window it is refused
-- (retention_remove.lua remembers its id), never run again
local stone = redis.call('HGET', KEYS[5], ARGV[2])
if stone then
  if cjson.decode(stone).specHash ~= ARGV[4] then
    return {'conflict'}
  end
  return {'tombstone', stone}
end
local gone = redis.call('GET', KEYS[6])
if gone and string.find(gone, ' ' .. string.sub(redis.sha1hex(ARGV[2]), 1, 8), 1, true) then
  return {'expired'}
end
local agent = known[1]
if agent and agent ~= ARGV[5] then
  return redis.error_reply('AGENT_MISMATCH session belongs to agent ' .. agent)
end
if not agent then
  redis.call('HSET', KEYS[1], 'agent', ARGV[5], 'createdAt', ARGV[6])
  if ARGV[7] ~= '' then
    redis.call('HSET', KEYS[1], 'caller', ARGV[7])
  end
  if ARGV[8] ~= '' then
    redis.call('HSET', KEYS[1], 'creator', ARGV[8])
  end
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[6])
redis.call('HSET', KEYS[3], 'spec', ARGV[3], 'specHash', ARGV[4], 'status', 'running', 'submittedAt', ARGV[6])
redis.call('SADD', KEYS[4], ARGV[2])
-- the step's events share one stream entry (StepEntries): the turn and the time once, then one
-- field per event, its type and call, and its data. turn.submitted carries no data: its data is the
-- turn's spec, which the turn's hash holds and RedisJournal.events reads from there
-- the turn is new, so no call of it has a record yet (J1): its first write needs no lookup
-- the entry's id orders the session's turns where two were submitted in the same millisecond
if KEYS[7] then
  redis.call('HSET', KEYS[7], 'turn', ARGV[2], 'state', 'started', 'attempts', ARGV[10], 'startedAt', ARGV[6])
  local id = redis.call('XADD', KEYS[2], '*', 'turn', ARGV[2], 'at', ARGV[6], 'turn.submitted', '', ARGV[9], ARGV[11])
  redis.call('HSET', KEYS[3], 'entry', id)
  return {'new', '1'}
end
local id = redis.call('XADD', KEYS[2], '*', 'turn', ARGV[2], 'at', ARGV[6], 'turn.submitted', '')
redis.call('HSET', KEYS[3], 'entry', id)
return {'new', '0'}
