savings --instance p4d.24xlarge --strategy mig:3g.20gb
