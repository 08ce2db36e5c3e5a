if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], ARGV[3]) end
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[3], ARGV[2])
return 1
