return redis.call('HGETALL', KEYS[1])
