-- Takes ownership of a session: a new fencing epoch that makes every earlier owner's appends fail.
-- KEYS[1] meta  KEYS[2] events
-- ARGV[1] owner  ARGV[2] now
local epoch = redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'claimedAt', ARGV[2])
redis.call('XADD', KEYS[2], '*', 'type', 'session.claimed', 'at', ARGV[2], 'data',
  cjson.encode({owner = ARGV[1], epoch = epoch}))
return epoch
