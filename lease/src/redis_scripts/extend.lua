if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[3], ARGV[3], ARGV[5] .. ' ' .. now .. ' ' .. ARGV[2])
local all = redis.call('HRANDFIELD', KEYS[3], ARGV[6] + 1, 'WITHVALUES')
local peers = {}
for i = 1, #all, 2 do
  if all[i] ~= ARGV[3] and #peers < 2 * tonumber(ARGV[6]) then
    local _, at, ttl = string.match(all[i + 1], '^(%S+) (%S+) (%S+)$')
    if now - tonumber(at) < tonumber(ttl) then
      peers[#peers + 1] = all[i]
      peers[#peers + 1] = all[i + 1]
    else
      redis.call('HDEL', KEYS[3], all[i])
    end
  end
end
return {now, peers}
