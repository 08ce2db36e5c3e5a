if redis.call('SET', KEYS[2], ARGV[2], 'NX') then
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
end
for i = 4, #KEYS do
  if redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local bound = redis.call('HGET', KEYS[1], ARGV[i - 1])
    if bound then return {ARGV[i - 1], bound, 0} end
    return {ARGV[i - 1], '0', math.max(redis.call('PTTL', KEYS[3]), 0)}
  end
end
return false
