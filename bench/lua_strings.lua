-- lua_strings.lua SCALE - a string-heavy workload, in the shape of a text
-- processing script: it generates a corpus of sentences, splits them into
-- words (string.gmatch), counts and ranks them in a table, rewrites every
-- line with gsub and string.format, and builds reports with table.concat.
-- Nearly every step makes a new string (Lua interns short ones in a hash
-- table and allocates long ones apart), so the run is string allocation,
-- hashing and the collector freeing the garbage. Prints a checksum so the
-- work cannot be skipped. SCALE 1 takes a fifth of a second natively
-- (as alloc_heavy.lua's; bench/run-all.sh runs them at LUA_SCALE).
local scale = tonumber(arg and arg[1]) or 1

local syllables = { "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "xe", "zu",
                    "bar", "cor", "dun", "fel", "gar", "hin" }
local seed = 42
local function random(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
local function word()
  local parts = {}
  for i = 1, random(3) + 1 do
    parts[i] = syllables[random(#syllables)]
  end
  return table.concat(parts)
end

local checksum = 0
for _ = 1, 3 * scale do
  local lines = {}
  for l = 1, 4000 do
    local words = {}
    for w = 1, random(12) + 4 do
      words[w] = word()
    end
    lines[l] = table.concat(words, " ") .. "."
  end
  local counts = {}
  for _, line in ipairs(lines) do
    for w in line:gmatch("%a+") do
      counts[w] = (counts[w] or 0) + 1
    end
  end
  local ranked = {}
  for w, n in pairs(counts) do
    ranked[#ranked + 1] = { w = w, n = n }
  end
  table.sort(ranked, function(a, b)
    if a.n ~= b.n then return a.n > b.n end
    return a.w < b.w
  end)
  local report = {}
  for i = 1, math.min(#ranked, 500) do
    report[i] = string.format("%4d %-20s %6d", i, ranked[i].w:upper(), ranked[i].n)
  end
  local text = table.concat(report, "\n")
  for i, line in ipairs(lines) do
    local rewritten = line:gsub("(%a+)", function(w)
      return #w > 5 and w:sub(1, 3) .. "~" or w:reverse()
    end)
    lines[i] = string.format("[%05d] %s", i, rewritten)
  end
  checksum = checksum + #text + #table.concat(lines, "\n") + #ranked
end
print(string.format("strings: checksum %d", checksum))
