-- lua_trees.lua SCALE - a GC-heavy object-tree workload, in the shape of the
-- benchmarks game's binary-trees: many short-lived complete binary trees of
-- growing depth beside one long-lived tree, each tree walked to count its
-- nodes. Every node is a small table (Lua allocates it and its array part),
-- so the run is allocation, the collector's marking and sweeping, and
-- pointer chasing through fresh objects. Prints a checksum so the work
-- cannot be skipped. SCALE 1 takes a fifth of a second natively
-- (as alloc_heavy.lua's; bench/run-all.sh runs them at LUA_SCALE).
local scale = tonumber(arg and arg[1]) or 1

local function make(depth)
  if depth == 0 then
    return { false, false }
  end
  depth = depth - 1
  return { make(depth), make(depth) }
end

local function count(tree)
  if not tree[1] then
    return 1
  end
  return 1 + count(tree[1]) + count(tree[2])
end

local max_depth = 14
local long_lived = make(max_depth)
local checksum = 0
for _ = 1, scale do
  for depth = 4, max_depth, 2 do
    local iterations = 1 << (max_depth - depth + 4)
    for _ = 1, iterations // 4 do
      checksum = checksum + count(make(depth))
    end
  end
end
checksum = checksum + count(long_lived)
print(string.format("trees: depth %d, checksum %d", max_depth, checksum))
