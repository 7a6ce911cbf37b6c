def parse(line):
	parts = line.split(",")
	if len(parts) < 2:
		return None
	key = parts[0].strip()
	value = parts[1].strip()
	return key, value


def parse_all(lines):
	out = {}
	for line in lines:
		pair = parse(line)
		if pair:
			out[pair[0]] = pair[1]
	return out
