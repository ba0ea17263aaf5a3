instances --gpu nope
