-- Journals the terminal outcomes of several calls of one turn in one round trip (group commit), each
-- exactly once (J1). When the caller also passes the turn's results and every call was new, the
-- turn is completed in the same step (J7: its results are journaled before they are delivered).
-- The step may also journal the next write of the turn as started (J2), when every outcome in it
-- was new: the write queue's next request then leaves without a round trip of its own.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] turn  KEYS[4] inflight  KEYS[5] the next write's call (when
-- ARGV[6] is not '')  then one call key per call
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] now  ARGV[4] turn results (json) or ''
-- ARGV[5] the turn.completed event data (json: the results without each call's result, which the
-- turn's hash and each call's hash hold already) or ''
-- ARGV[6] the next write's call id or ''  ARGV[7] its attempt  ARGV[8] its started event data (json)
-- then per call: call id, outcome, record (json), event data (json)
-- Answers: turn completed (0/1), next write started (0/1), then per call '' or the record journaled earlier.
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then
  return redis.error_reply('FENCED session owned by a newer epoch')
end
local answers = {}
local allNew = true
local starts = ARGV[6] ~= ''
local firstKey = starts and 5 or 4
local n = #KEYS - firstKey
for i = 1, n do
  local key = KEYS[firstKey + i]
  local base = 8 + (i - 1) * 4
  local existing = redis.call('HGET', key, 'record')
  if existing then
    allNew = false
    answers[i] = existing
  else
    redis.call('HSET', key, 'turn', ARGV[2], 'state', 'done', 'outcome', ARGV[base + 2], 'record', ARGV[base + 3],
      'completedAt', ARGV[3])
    redis.call('XADD', KEYS[2], '*', 'type', 'call.completed', 'turn', ARGV[2], 'call', ARGV[base + 1], 'at', ARGV[3],
      'data', ARGV[base + 4])
    answers[i] = ''
  end
end
local turnDone = 0
if ARGV[4] ~= '' and allNew and redis.call('HGET', KEYS[3], 'status') ~= 'completed' then
  redis.call('HSET', KEYS[3], 'status', 'completed', 'results', ARGV[4], 'completedAt', ARGV[3])
  redis.call('HSET', KEYS[1], 'updatedAt', ARGV[3])
  redis.call('SREM', KEYS[4], ARGV[2])
  redis.call('XADD', KEYS[2], '*', 'type', 'turn.completed', 'turn', ARGV[2], 'at', ARGV[3], 'data', ARGV[5])
  turnDone = 1
end
local started = 0
if starts and allNew and turnDone == 0 and not redis.call('HGET', KEYS[5], 'record') then
  redis.call('HSET', KEYS[5], 'turn', ARGV[2], 'state', 'started', 'attempts', ARGV[7], 'startedAt', ARGV[3])
  redis.call('XADD', KEYS[2], '*', 'type', 'call.started', 'turn', ARGV[2], 'call', ARGV[6], 'at', ARGV[3],
    'data', ARGV[8])
  started = 1
end
table.insert(answers, 1, started)
table.insert(answers, 1, turnDone)
return answers
