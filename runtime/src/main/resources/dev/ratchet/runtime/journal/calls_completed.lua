-- Journals the terminal outcomes of several calls of one turn in one round trip (group commit), each
-- exactly once (J1). When the caller also asks to complete the turn and every call was new, the turn
-- is completed in the same step once every call of the turn has a record (J7: its results, the
-- calls' records in the model's order, are journaled before they are delivered). The turn's hash
-- does not copy the records: readers put the results together from the calls' hashes, and a
-- reconciliation copies them into the turn before it changes one (call_reconciled.lua).
-- The step may also journal the next write of the turn as started (J2), when every outcome in it
-- was new: the write queue's next request then leaves without a round trip of its own.
-- KEYS[1] meta  KEYS[2] events  KEYS[3] turn  KEYS[4] inflight  KEYS[5] the next write's call (when
-- ARGV[6] is not '')  then one call key per call of the step  then, when the turn completes, the
-- call key of each other call of the turn
-- ARGV[1] epoch  ARGV[2] turn id  ARGV[3] now
-- ARGV[4] '1' to complete the turn, or ''
-- ARGV[5] the turn.completed event data (json: the turn and each call's outcome; the calls' hashes
-- hold the records) or ''
-- ARGV[6] the next write's event field ('call.started <call id>') or ''  ARGV[7] its attempt
-- ARGV[8] its started event data (json)
-- then per call: its event field ('call.completed <call id>'), its event data (json: the outcome and
-- the result's size in bytes; the call's hash holds the record, which RedisJournal.events reads from
-- there), its record (json), 'outcome_unknown' when that is its outcome (else '')
-- The engine sends each string whole: Lua hashes every string it makes, so building records and
-- events here would cost Redis more than sending them costs the network. A completed call's hash
-- gets its record alone (and its turn, when the outcome is unknown, for the reconciliation to name):
-- HSETNX both checks that the call has no outcome yet (J1) and journals it, and readers take a
-- record for "done".
-- Answers: turn completed (0/1), next write started (0/1), then, unless every record is new, per call
-- '' or the record journaled earlier.
-- the step's events go into one stream entry (StepEntries): the turn and the time once, then one
-- field per event, its type and call, and its data; a step of thousands of calls takes several
-- entries, as Lua unpacks at most about 8,000 values into one call
local entry = {'turn', ARGV[2], 'at', ARGV[3]}
local size = 4
local function flush()
  if size > 4 then
    redis.call('XADD', KEYS[2], '*', unpack(entry, 1, size))
    size = 4
  end
end
local function append(field, data)
  if size >= 6000 then
    flush()
  end
  entry[size + 1] = field
  entry[size + 2] = data
  size = size + 2
end
-- the first two answers are filled in last
local answers = {0, 0}
local allNew = true
local starts = ARGV[6] ~= ''
local firstKey = starts and 5 or 4
local n = (#ARGV - 8) / 4
-- a completing turn's other calls are checked before anything is written: a script's writes are
-- not undone by an error
if ARGV[4] ~= '' then
  for k = firstKey + n + 1, #KEYS do
    if redis.call('HEXISTS', KEYS[k], 'record') == 0 then
      return redis.error_reply('JOURNAL_INCOMPLETE a call of the turn has no outcome journaled: ' .. KEYS[k])
    end
  end
end
for i = 1, n do
  local key = KEYS[firstKey + i]
  local base = 8 + (i - 1) * 4
  if redis.call('HSETNX', key, 'record', ARGV[base + 3]) == 0 then
    allNew = false
    answers[i + 2] = redis.call('HGET', key, 'record')
  else
    if ARGV[base + 4] == 'outcome_unknown' then
      redis.call('HSET', key, 'turn', ARGV[2])
    end
    append(ARGV[base + 1], ARGV[base + 2])
    answers[i + 2] = ''
  end
end
local turnDone = 0
-- every outcome of the step being new, the turn cannot have completed before (J7 needs them all)
if ARGV[4] ~= '' and allNew then
  redis.call('HSET', KEYS[3], 'status', 'completed', 'completedAt', ARGV[3])
  redis.call('HSET', KEYS[1], 'updatedAt', ARGV[3])
  redis.call('SREM', KEYS[4], ARGV[2])
  append('turn.completed', ARGV[5])
  turnDone = 1
end
local started = 0
if starts and allNew and turnDone == 0 and not redis.call('HGET', KEYS[5], 'record') then
  redis.call('HSET', KEYS[5], 'turn', ARGV[2], 'state', 'started', 'attempts', ARGV[7], 'startedAt', ARGV[3])
  append(ARGV[6], ARGV[8])
  started = 1
end
flush()
if allNew then
  -- every record is the one sent: the engine needs no answer per call
  return {turnDone, started}
end
answers[1] = turnDone
answers[2] = started
return answers
