"""Fails if the README's API example differs from examples/api_tour.cc."""
import sys

readme, example = (open(p).read() for p in sys.argv[1:3])
begin, end = "<!-- api_tour:begin -->\n```cpp\n", "```\n<!-- api_tour:end -->"
if begin not in readme or end not in readme:
    sys.exit("README.md has no api_tour block")
block = readme.split(begin, 1)[1].split(end, 1)[0]
if block != example:
    sys.exit("README.md's API example differs from examples/api_tour.cc")
print("README example matches examples/api_tour.cc")
