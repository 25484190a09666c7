-- alloc_heavy.lua - an allocation-heavy Lua workload for bench/run-all.sh.
--
-- Every Lua allocation goes through lauxlib's l_alloc, i.e. realloc/free, so
-- this drives the C allocator hard: short-lived tables that grow (array and
-- hash parts are reallocated as they grow), fresh strings (concatenation,
-- string.format, gsub), closures and their upvalues, and a sliding window of
-- survivors so the garbage collector keeps freeing what it swept.
--
--   lua alloc_heavy.lua [SCALE]     SCALE (default 10) sets the amount of work
--
-- Deterministic (fixed-seed generator), prints one checksum line.

local scale = tonumber(arg and arg[1]) or 10

local seed = 12345
local function rand(n)
  -- a small LCG, so the work does not depend on math.random's implementation
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

local checksum = 0
local window = {}        -- survivors: overwritten slots become garbage
local WINDOW = 4096

-- 1. records: a table per record, with an array part and a hash part
local function make_record(i)
  local r = { id = i, name = "rec" .. i, tags = {} }
  for k = 1, 1 + rand(12) do
    r.tags[k] = string.format("t%d_%d", i, k)
  end
  return r
end

-- 2. closures capturing fresh upvalues
local function make_counter(start)
  local n = start
  return function(step)
    n = n + step
    return n
  end
end

-- 3. strings built piecewise and rewritten
local function churn_string(i)
  local parts = {}
  for k = 1, 8 do
    parts[#parts + 1] = tostring(i * k)
  end
  local s = table.concat(parts, ",")
  s = s:gsub("%d", function(d) return d == "0" and "zero" or d end)
  return s:upper()
end

for round = 1, scale do
  for i = 1, 6000 do
    local r = make_record(round * 100000 + i)
    local c = make_counter(i)
    c(round); c(1)
    r.counter = c
    r.text = churn_string(i + round)
    window[rand(WINDOW) + 1] = r
    checksum = (checksum + #r.text + #r.tags + c(0)) % 1000000007
  end
  -- a growing map keyed by strings, then dropped
  local map = {}
  for i = 1, 20000 do
    map["k" .. (i * 7919 % 100003)] = i
  end
  local sum = 0
  for _, v in pairs(map) do sum = sum + v end
  checksum = (checksum + sum) % 1000000007
  -- arrays that grow one element at a time, then shrink via table.remove
  local arr = {}
  for i = 1, 30000 do arr[i] = { i } end
  while #arr > 15000 do table.remove(arr) end
  checksum = (checksum + #arr) % 1000000007
end

collectgarbage()
print(string.format("alloc_heavy scale=%d checksum=%d kb=%d", scale, checksum,
  math.floor(collectgarbage("count"))))
