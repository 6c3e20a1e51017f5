-- Prepended by LuaScripts to every fenced script: an append runs only under the session's current
-- fencing epoch, so an owner that lost the session to a newer claim cannot write any more.
-- KEYS[1] meta  ARGV[1] epoch
-- A session an operator erased has no meta but the erasure's mark (JournalKeys.erased).
local fencedEpoch = redis.call('HGET', KEYS[1], 'epoch')
if fencedEpoch ~= ARGV[1] then
  if not fencedEpoch and redis.call('EXISTS', KEYS[1] .. ':erased') == 1 then
    return redis.error_reply('SESSION_ERASED an operator erased the session')
  end
  return redis.error_reply('FENCED session owned by a newer epoch')
end
