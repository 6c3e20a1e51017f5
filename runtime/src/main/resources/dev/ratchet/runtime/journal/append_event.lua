-- Appends an informational step event (for example a failed attempt) under the owner's epoch.
-- KEYS[1] meta  KEYS[2] events
-- ARGV[1] epoch  ARGV[2] type  ARGV[3] turn id  ARGV[4] call id  ARGV[5] now  ARGV[6] data (json)
redis.call('XADD', KEYS[2], '*', 'type', ARGV[2], 'turn', ARGV[3], 'call', ARGV[4], 'at', ARGV[5], 'data', ARGV[6])
return 'ok'
