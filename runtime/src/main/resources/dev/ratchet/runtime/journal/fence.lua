-- Prepended by LuaScripts to every fenced script: an append runs only under the session's current
-- fencing epoch, so an owner that lost the session to a newer claim cannot write any more.
-- KEYS[1] meta  ARGV[1] epoch
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then
  return redis.error_reply('FENCED session owned by a newer epoch')
end
