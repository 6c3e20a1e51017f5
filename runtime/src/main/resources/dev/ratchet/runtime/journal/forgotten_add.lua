-- Adds a session id to the filter of forgotten sessions: a Bloom filter of fixed size, in two
-- generations so that it never fills up. When the current generation holds its quota of ids it
-- becomes the previous one (the one before is dropped) and a new, empty one starts. With no bit
-- positions, only makes sure the current generation exists at its full size, so that its memory is
-- taken once, up front.
-- KEYS[1] current generation  KEYS[2] previous generation  KEYS[3] ids in the current generation
-- ARGV[1] bits per generation  ARGV[2] ids per generation  ARGV[3..] the id's bit positions
if #ARGV > 2 and tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[2]) then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('RENAME', KEYS[1], KEYS[2])
  end
  redis.call('SET', KEYS[3], '0')
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SETBIT', KEYS[1], tonumber(ARGV[1]) - 1, 0)
end
if #ARGV > 2 then
  for i = 3, #ARGV do
    redis.call('SETBIT', KEYS[1], ARGV[i], 1)
  end
  redis.call('INCR', KEYS[3])
end
return 1
