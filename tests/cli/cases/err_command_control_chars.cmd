"$(printf 'plan\nforged\033[2J')"
