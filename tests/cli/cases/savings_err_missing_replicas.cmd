savings --instance p3.2xlarge
