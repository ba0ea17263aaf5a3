import --nodes - --pods -
